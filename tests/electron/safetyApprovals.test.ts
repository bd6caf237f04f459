import { describe, expect, it, vi } from 'vitest';
import type { ApprovalQuestion } from '../../src-main/core/capabilities/permissions/approvals';
import { createFakeElectron, type FakeElectron } from './fakeElectron';

vi.mock('electron', () => ({
  ...createFakeElectron(),
  dialog: { showMessageBox: vi.fn(async () => ({ response: 2, checkboxChecked: false })) },
}));

const electron = (await import('electron')) as unknown as FakeElectron & { dialog: { showMessageBox: ReturnType<typeof vi.fn> } };
const { createDialogApprovals, approvalDialogOptions, APPROVAL_BUTTONS } = await import('../../src-main/electron/approvals');

const cellQuestion: ApprovalQuestion = {
  requestId: 'r1',
  sessionId: 's1',
  runId: 'run1',
  origin: 'cell',
  tool: 'cell_review',
  target: 'python cell 0a1b2c3d4e5f',
  reason: 'The pre-execution review flagged one line of this Python cell:\nline 2: subprocess.run(["curl", "https://example.org"]) (calls subprocess.run, which starts another program)',
  sideEffect: 'exec',
  detail: 'line 2: subprocess.run(["curl", "https://example.org"]) (calls subprocess.run, which starts another program)',
};

describe('native dialog for the safety layers (issue 27)', () => {
  it('a flagged cell: titled as a safety check, the flagged lines in the detail, no "always" to remember', () => {
    const options = approvalDialogOptions(cellQuestion);
    expect(options).toMatchObject({ type: 'warning', title: 'Safety check', message: 'A cell was flagged before it runs', buttons: [...APPROVAL_BUTTONS], defaultId: 2, cancelId: 2 });
    expect(options.detail).toContain('line 2: subprocess.run(["curl", "https://example.org"])');
    expect(options.detail).not.toContain('Reason given by the agent');
    expect(options.checkboxLabel).toBeUndefined();
  });

  it("a biosecurity escalation shows the screener's reason and what the pre-scan found; answers are once or for the session", async () => {
    const q: ApprovalQuestion = { ...cellQuestion, tool: 'biosecurity_screen', origin: 'tool', target: 'enhancing a pathogen', reason: 'Biosecurity screening asks you to confirm before the agent continues: dual-use work on H5N1.', detail: 'enhancing a pathogen: "increase airborne transmissibility"' };
    const options = approvalDialogOptions(q);
    expect(options.message).toBe('Biosecurity screening asks you to confirm');
    expect(options.detail).toContain('dual-use work on H5N1');
    expect(options.detail).toContain('What the pre-scan found:\nenhancing a pathogen');
    const port = createDialogApprovals({ dialog: electron.dialog as never, window: () => null });
    electron.dialog.showMessageBox.mockResolvedValueOnce({ response: 1, checkboxChecked: true });
    // Without the checkbox nothing can become a stored rule, whatever the dialog reports.
    expect(await port.ask(q, new AbortController().signal)).toBe('allow_session');
  });
});
