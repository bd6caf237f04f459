/**
 * Issue 25: the agent's next run waits while the user's notebook cell holds the kernel; its
 * queued message says so (who holds it) instead of "runs after the current answer".
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { UserBubble } from '../../src-renderer/src/components/conversation/UserBubble';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { bridge } from '../../src-renderer/src/api/bridge';
import { memoryStorage } from './support';

afterEach(cleanup);

function renderIn(language: string, node: React.ReactNode) {
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: [language] });
  render(<StoreProvider store={store}>{node}</StoreProvider>);
}

describe('a queued message waiting for the kernel', () => {
  it('names who holds the kernel, in the UI language; otherwise it waits for the current answer', () => {
    renderIn('en-US', <UserBubble text="What is the length?" queued waitingFor="user" />);
    expect(screen.getByTestId('queued-note').textContent).toBe(' Waiting for the kernel: your notebook cell holds it');
    cleanup();
    renderIn('zh-CN', <UserBubble text="长度是多少？" queued waitingFor="environment" />);
    expect(screen.getByTestId('queued-note').textContent).toBe(' 等待内核：当前由环境切换占用');
    cleanup();
    renderIn('en-US', <UserBubble text="Next" queued />);
    expect(screen.getByTestId('queued-note').textContent).toBe(' Queued · runs after the current answer');
  });
});
