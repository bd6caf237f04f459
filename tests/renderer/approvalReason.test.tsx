import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReactNode } from 'react';
import { ApprovalLine } from '../../src-renderer/src/components/parts/DataParts';
import { bridge } from '../../src-renderer/src/api/bridge';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

afterEach(cleanup);

function inStore(node: ReactNode) {
  window.openai4s = fakeBridgeApi(() => ({ ok: true, data: null }));
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  return <StoreProvider store={store}>{node}</StoreProvider>;
}

describe('approval card reason (issue 27)', () => {
  it("shows a flagged cell's lines as code, one per line, with their numbers", () => {
    render(
      inStore(<ApprovalLine
        data={{
          requestId: 'req-1',
          state: 'requested',
          origin: 'cell',
          tool: 'cell_review',
          target: 'python cell 0a1b2c3d4e5f',
          reason: 'The pre-execution review flagged 2 lines of this Python cell:\nline 1: import subprocess (imports subprocess, which starts other programs)\nline 2: subprocess.run(["curl", "-s", "https://example.org"]) (calls subprocess.run, which starts another program)',
        }}
      />),
    );
    const lines = screen.getByTestId('flagged-lines').querySelectorAll('.flagged-line');
    expect([...lines].map((l) => l.getAttribute('data-line'))).toEqual(['1', '2']);
    expect(lines[1]!.textContent).toContain('subprocess.run(["curl", "-s", "https://example.org"])');
    expect(screen.getByText(/The pre-execution review flagged 2 lines/)).toBeTruthy();
  });

  it('keeps any other reason as plain text', () => {
    render(inStore(<ApprovalLine data={{ requestId: 'req-2', state: 'denied', origin: 'tool', tool: 'biosecurity_screen', target: 'enhancing a pathogen', reason: 'Biosecurity screening asks you to confirm before the agent continues: dual-use work.' }} />));
    expect(screen.queryByTestId('flagged-lines')).toBeNull();
    expect(screen.getByText(/asks you to confirm/)).toBeTruthy();
  });
});
