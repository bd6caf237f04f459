/**
 * A notice main pushes (`app.notice`) is said from its code in the window's language, filled
 * from its params; main's English message stands in for a code this window does not know,
 * for none, and for a sentence whose params did not all come.
 */
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createBridge } from '../../src-renderer/src/api/bridge';
import { Notices } from '../../src-renderer/src/components/Notices';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { connectEvents, createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

afterEach(() => cleanup());

const REPORT_FAILED = {
  level: 'warning',
  code: 'report_open_failed',
  message: 'The package’s report did not open (no viewer). It is at /data/received/s1/README.md',
  params: { path: '/data/received/s1/README.md', message: 'no viewer' },
};

/** A window in `language` listening to main's events, with its notices on screen. */
function windowIn(language: string) {
  const api = fakeBridgeApi(() => ({ ok: true, data: null }));
  const bridge = createBridge(() => api);
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: [language] });
  connectEvents(store, bridge);
  render(
    <StoreProvider store={store}>
      <Notices />
    </StoreProvider>,
  );
  const shown = () => [...document.querySelectorAll('.notice > span')].map((n) => n.textContent);
  return { api, store, shown };
}

describe('a notice from main', () => {
  it('in a Chinese window is said in Chinese from its code and params', () => {
    const { api, shown } = windowIn('zh-CN');
    act(() => api.emit('app.notice', REPORT_FAILED));
    act(() =>
      api.emit('app.notice', {
        level: 'error',
        code: 'package_open_failed',
        message: 'x.openai4s.zip could not be opened: EACCES. Check it from a terminal: openai4s verify "/tmp/x.openai4s.zip"',
        params: { file: 'x.openai4s.zip', path: '/tmp/x.openai4s.zip', message: 'EACCES' },
      }),
    );
    expect(shown()).toEqual([
      '会话包的报告没有打开（no viewer）。它位于 /data/received/s1/README.md',
      '无法打开 x.openai4s.zip：EACCES。可在终端中检查：openai4s verify "/tmp/x.openai4s.zip"',
    ]);
  });

  it('follows a switch of the window’s language', () => {
    const { api, store, shown } = windowIn('en-US');
    act(() => api.emit('app.notice', REPORT_FAILED));
    expect(shown()).toEqual(['The package’s report did not open (no viewer). It is at /data/received/s1/README.md']);
    act(() => store.getState().setLanguage('zh-CN'));
    expect(shown()).toEqual(['会话包的报告没有打开（no viewer）。它位于 /data/received/s1/README.md']);
  });

  it('shows main’s English message for an unknown code, no code, or a missing param', () => {
    const { api, shown } = windowIn('zh-CN');
    act(() => api.emit('app.notice', { level: 'info', code: 'from_a_newer_main', message: 'A newer kind of notice.', params: {} }));
    act(() => api.emit('app.notice', { level: 'info', message: 'An uncoded notice.' }));
    act(() => api.emit('app.notice', { ...REPORT_FAILED, params: { message: 'no viewer' } }));
    expect(shown()).toEqual(['A newer kind of notice.', 'An uncoded notice.', REPORT_FAILED.message]);
  });
});
