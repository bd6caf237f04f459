import { describe, expect, it, vi } from 'vitest';
import type { ApprovalQuestion } from '../../src-main/core/capabilities/permissions/approvals';
import { createFakeElectron, type FakeElectron } from './fakeElectron';

// The fake electron plus the one module this glue uses: a dialog that records its calls.
vi.mock('electron', () => ({
  ...createFakeElectron(),
  dialog: { showMessageBox: vi.fn(async () => ({ response: 2, checkboxChecked: false })) },
}));

const electron = (await import('electron')) as unknown as FakeElectron & {
  dialog: { showMessageBox: ReturnType<typeof vi.fn> };
};
const { createDialogApprovals, APPROVAL_BUTTONS } = await import('../../src-main/electron/approvals');
const { createPermissionLayer, HostDispatcher } = await import('../../src-main/core/capabilities/dispatcher');
const { MemoryAudit } = await import('../../src-main/core/capabilities/audit');
const { MemoryRequestStore, MemoryRuleStore } = await import('../../src-main/core/capabilities/permissions/memoryStores');
const { createToolRegistry } = await import('../../src-main/core/capabilities/builtin');

const question: ApprovalQuestion = {
  requestId: 'r1',
  sessionId: 's1',
  runId: 'run1',
  origin: 'tool',
  tool: 'web_fetch',
  target: 'https://rest.uniprot.org',
  reason: 'fetch the INS entry',
  sideEffect: 'network',
  detail: '{"url":"https://rest.uniprot.org/uniprotkb/P01308.json"}',
};

describe('native approval dialog', () => {
  it('asks on the app window with Allow once / Allow for this session / Deny and the tool, target and reason', async () => {
    const win = new electron.BrowserWindow({});
    const port = createDialogApprovals({ dialog: electron.dialog as never, window: () => win as never });
    electron.dialog.showMessageBox.mockResolvedValueOnce({ response: 0, checkboxChecked: false });
    expect(await port.ask(question, new AbortController().signal)).toBe('allow_once');
    const [parent, options] = electron.dialog.showMessageBox.mock.calls.at(-1)!;
    expect(parent).toBe(win);
    expect(options).toMatchObject({ type: 'question', buttons: [...APPROVAL_BUTTONS], defaultId: 2, cancelId: 2 });
    expect(APPROVAL_BUTTONS).toEqual(['Allow once', 'Allow for this session', 'Deny']);
    expect(options.message).toBe('The agent wants to reach the network: web_fetch on https://rest.uniprot.org');
    expect(options.detail).toContain('Tool: web_fetch');
    expect(options.detail).toContain('Target: https://rest.uniprot.org');
    expect(options.detail).toContain('Reason given by the agent: fetch the INS entry');
  });

  it.each([
    [{ response: 1, checkboxChecked: false }, 'allow_session'],
    [{ response: 1, checkboxChecked: true }, 'allow_always'],
    [{ response: 2, checkboxChecked: false }, 'deny'],
    [{ response: 2, checkboxChecked: true }, 'deny_always'],
  ])('maps %o to %s', async (result, answer) => {
    const port = createDialogApprovals({ dialog: electron.dialog as never, window: () => null });
    electron.dialog.showMessageBox.mockResolvedValueOnce(result);
    expect(await port.ask(question, new AbortController().signal)).toBe(answer);
    // No window: an app-level box, not one attached to a closed window.
    expect(electron.dialog.showMessageBox.mock.calls.at(-1)).toHaveLength(1);
  });

  it('a closed window or a dialog that fails means Deny', async () => {
    const win = new electron.BrowserWindow({});
    win.close();
    const port = createDialogApprovals({ dialog: electron.dialog as never, window: () => win as never });
    electron.dialog.showMessageBox.mockResolvedValueOnce({ response: 1, checkboxChecked: false });
    expect(await port.ask(question, new AbortController().signal)).toBe('allow_session');
    expect(electron.dialog.showMessageBox.mock.calls.at(-1)).toHaveLength(1);
    electron.dialog.showMessageBox.mockRejectedValueOnce(new Error('no display'));
    expect(await port.ask(question, new AbortController().signal)).toBe('deny');
  });

  it('through the dispatcher: "Allow for this session" is asked once, then the session runs the target freely', async () => {
    const port = createDialogApprovals({ dialog: electron.dialog as never, window: () => null });
    const registry = createToolRegistry({ env: {} });
    const { policy, approvals } = createPermissionLayer({ rules: new MemoryRuleStore(), requests: new MemoryRequestStore(), port });
    const dispatcher = new HostDispatcher({ registry, policy, approvals, audit: new MemoryAudit() });
    const before = electron.dialog.showMessageBox.mock.calls.length;
    electron.dialog.showMessageBox.mockResolvedValueOnce({ response: 1, checkboxChecked: false });
    const ctx = { origin: 'tool' as const, sessionId: 's1', runId: null, workspace: '/x', signal: new AbortController().signal };
    // The address is refused by the egress guard after approval: nothing leaves the machine.
    const a = await dispatcher.dispatch('web_fetch', { url: 'http://10.0.0.1/a', reason: 'why not' }, ctx);
    const b = await dispatcher.dispatch('web_fetch', { url: 'http://10.0.0.1/b' }, ctx);
    expect([a.status, b.status]).toEqual(['refused', 'refused']);
    expect(b.decision).toEqual({ action: 'allow', by: 'session-grant' });
    expect(electron.dialog.showMessageBox.mock.calls.length - before).toBe(1);
    expect(electron.dialog.showMessageBox.mock.calls.at(-1)![0].detail).toContain('Reason given by the agent: why not');
  });
});

describe('native approval dialog in the window’s language', () => {
  it('asks in Chinese when the window speaks Chinese, and says when the agent gave no reason', async () => {
    const port = createDialogApprovals({ dialog: electron.dialog as never, window: () => null, language: () => 'zh-CN' });
    electron.dialog.showMessageBox.mockResolvedValueOnce({ response: 1, checkboxChecked: true });
    expect(await port.ask({ ...question, reason: '' }, new AbortController().signal)).toBe('allow_always');
    const [options] = electron.dialog.showMessageBox.mock.calls.at(-1)!;
    expect(options).toMatchObject({ title: '需要你的批准', buttons: ['仅允许这一次', '本会话内允许', '拒绝'], defaultId: 2, cancelId: 2 });
    expect(options.message).toBe('智能体想要访问网络：对 https://rest.uniprot.org 使用 web_fetch');
    expect(options.detail).toContain('智能体给出的理由：（智能体未说明理由）');
    expect(options.checkboxLabel).toContain('本会话内允许');
  });

  it('follows the window’s saved language, else the system’s first language', async () => {
    const { chooseUiLanguage: dialogLanguage } = await import('../../src-preload/contract/uiLanguage');
    expect(dialogLanguage('en', ['zh-CN'])).toBe('en');
    expect(dialogLanguage('zh-CN', ['en-US'])).toBe('zh-CN');
    expect(dialogLanguage(undefined, ['zh-TW', 'en'])).toBe('zh-CN');
    expect(dialogLanguage('fr', ['de-DE'])).toBe('en');
    expect(dialogLanguage(null, [])).toBe('en');
  });
});
