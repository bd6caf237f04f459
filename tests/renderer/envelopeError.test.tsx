import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope } from '../../src-preload/contract';
import { Notices } from '../../src-renderer/src/components/Notices';
import { bridge } from '../../src-renderer/src/api/bridge';
import { envelopeErrorText } from '../../src-renderer/src/errors/envelopeText';
import { translate } from '../../src-renderer/src/i18n/language';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { errorNotice } from '../../src-renderer/src/store/noticesReducer';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

// An IPC error main named a case for is said in the window's language; main's words stay the specifics.
afterEach(() => cleanup());

/** A window in `language` whose one call fails with `answer`, reported as a notice the way the slices do. */
async function noticeOf(answer: Envelope<unknown>, language: string): Promise<string> {
  window.openai4s = fakeBridgeApi(() => answer);
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: [language] });
  render(
    <StoreProvider store={store}>
      <Notices />
    </StoreProvider>,
  );
  await act(async () => {
    await bridge.invoke('session.list', {}).catch((error: unknown) => store.getState().receiveNotice(errorNotice(error)));
  });
  return screen.getByRole('alert').querySelector('span')?.textContent ?? '';
}

const NOT_FOUND: Envelope<unknown> = { ok: false, error: { code: 'not_found', message: 'No session "s9". Pick one from the list.', reason: 'not_found' } };

describe('an IPC error in a notice', () => {
  it('in a Chinese window is headed with its case in Chinese, main’s specifics after it', async () => {
    expect(await noticeOf(NOT_FOUND, 'zh-CN')).toBe('找不到：No session "s9". Pick one from the list.');
  });

  it('in a Chinese window says a case with nothing more to add wholly in Chinese', async () => {
    const closing: Envelope<unknown> = { ok: false, error: { code: 'unavailable', message: 'The app is shutting down; the message was not sent.', reason: 'shutting_down' } };
    expect(await noticeOf(closing, 'zh-CN')).toBe('应用正在关闭；请重新启动后再继续。');
  });

  it('shows main’s English words for a reason the window does not know, and for none', async () => {
    const future = { ok: false, error: { code: 'conflict', message: 'Quota of the future.', reason: 'from_a_newer_main' } } as unknown as Envelope<unknown>;
    expect(await noticeOf(future, 'zh-CN')).toBe('Quota of the future.');
    cleanup();
    expect(await noticeOf({ ok: false, error: { code: 'not_found', message: 'An older main said this.' } }, 'zh-CN')).toBe('An older main said this.');
  });

  it('in an English window is main’s message as it was', async () => {
    expect(await noticeOf(NOT_FOUND, 'en-US')).toBe('No session "s9". Pick one from the list.');
  });
});

describe('envelopeErrorText', () => {
  const zh = (key: Parameters<typeof translate>[1], params?: Parameters<typeof translate>[2]) => translate('zh-CN', key, params);
  it('heads a refused request as the app’s own problem', () => {
    expect(envelopeErrorText(zh, { message: 'Invalid input for memory.add: text: Required', reason: 'invalid_request' })).toBe('应用发出的请求无效（这是应用的问题，请报告）：Invalid input for memory.add: text: Required');
  });
  it('says nothing for no error', () => {
    expect(envelopeErrorText(zh, null)).toBe('');
  });
});
