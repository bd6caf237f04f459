import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolUIPart } from '../../src-preload/contract';
import { ToolCard } from '../../src-renderer/src/components/parts/ToolCard';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { bridge } from '../../src-renderer/src/api/bridge';
import { fakeBridgeApi, memoryStorage } from './support';

// A failed tool call is headed with its case in the window's language; main's words stay below.
afterEach(() => cleanup());

function renderCard(part: ToolUIPart, language: string) {
  window.openai4s = fakeBridgeApi(() => ({ ok: true, data: null }));
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: [language] });
  render(
    <StoreProvider store={store}>
      <ToolCard part={part} />
    </StoreProvider>,
  );
}

const failed = (errorText: string, errorCode?: string): ToolUIPart => ({
  type: 'tool-read_text_file',
  toolCallId: 'c1',
  state: 'output-error',
  input: { path: '../secret.txt' },
  errorText,
  ...(errorCode ? { errorCode } : {}),
});

const ESCAPE = 'Refused path "../secret.txt": it leaves the workspace. This was refused by the app\'s safety rules; do not retry it.';

describe('a failed tool call in a Chinese window', () => {
  it('says a named case in Chinese and keeps main’s English words below it', () => {
    renderCard(failed(ESCAPE, 'outside_workspace'), 'zh-CN');
    expect(screen.getByTestId('tool-error-headline').textContent).toBe('路径在会话工作区之外，已被拒绝。');
    expect(screen.getByTestId('tool-error').textContent).toBe(ESCAPE);
  });

  it('names the tool in the generic failure', () => {
    renderCard(failed('read_text_file failed: disk full', 'failed'), 'zh-CN');
    expect(screen.getByTestId('tool-error-headline').textContent).toBe('read_text_file 运行失败。');
  });

  it('shows a code it does not know as main’s English words alone', () => {
    renderCard(failed('read_text_file failed: quota of the future', 'quota_from_a_newer_main'), 'zh-CN');
    expect(screen.queryByTestId('tool-error-headline')).toBeNull();
    expect(screen.getByTestId('tool-error').textContent).toBe('read_text_file failed: quota of the future');
  });

  it('shows a recorded error without a code as before', () => {
    renderCard(failed('read_text_file failed: old session'), 'zh-CN');
    expect(screen.queryByTestId('tool-error-headline')).toBeNull();
    expect(screen.getByTestId('tool-error').textContent).toBe('read_text_file failed: old session');
  });
});

describe('a failed tool call in an English window', () => {
  it('heads it with the case in English', () => {
    renderCard(failed('read_text_file failed: took too long', 'timed_out'), 'en-US');
    expect(screen.getByTestId('tool-error-headline').textContent).toBe('The call ran out of time.');
    expect(screen.getByTestId('tool-card').hasAttribute('open')).toBe(true);
  });
});
