import { afterEach, describe, expect, it, vi } from 'vitest';
import { APP_NOTICE_CODES, appNoticeSchema } from '../../../src-preload/contract/notices';
import { EventBus } from '../../../src-main/core/events/bus';
import { publishNotice } from '../../../src-main/core/events/notice';
import { en } from '../../../src-renderer/src/i18n/locales/en';
import { placeholdersOf } from '../../../src-renderer/src/i18n/language';

// app.notice names its kind by a code of the contract; main parses each notice before it is sent.
afterEach(() => vi.restoreAllMocks());

describe('app.notice contract', () => {
  it('takes a known code with its params, and gives params {} when none came', () => {
    const notice = { level: 'error', code: 'package_open_failed', message: 'x.openai4s.zip could not be opened: EACCES', params: { file: 'x.openai4s.zip', path: '/tmp/x.openai4s.zip', message: 'EACCES' } } as const;
    expect(appNoticeSchema.parse(notice)).toEqual(notice);
    expect(appNoticeSchema.parse({ level: 'info', code: 'report_open_failed', message: 'm' }).params).toEqual({});
  });

  it('refuses an unknown code, a missing code or message, a non-text param and an extra field', () => {
    const base = { level: 'warning', code: 'report_open_failed', message: 'm' };
    expect(appNoticeSchema.safeParse({ ...base, code: 'kernel_changed' }).success).toBe(false);
    expect(appNoticeSchema.safeParse({ level: 'warning', message: 'm' }).success).toBe(false);
    expect(appNoticeSchema.safeParse({ ...base, message: '' }).success).toBe(false);
    expect(appNoticeSchema.safeParse({ ...base, params: { path: 3 } }).success).toBe(false);
    expect(appNoticeSchema.safeParse({ ...base, params: { 'not a name': 'x' } }).success).toBe(false);
    expect(appNoticeSchema.safeParse({ ...base, detail: 'x' }).success).toBe(false);
  });

  it('every code has an English sentence in the window whose placeholders are the params main sends', () => {
    const keys = Object.keys(en);
    for (const code of APP_NOTICE_CODES) expect(keys).toContain(`appNotice.${code}`);
    expect(placeholdersOf(en['appNotice.package_open_failed'])).toEqual(['file', 'message', 'path']);
    expect(placeholdersOf(en['appNotice.report_open_failed'])).toEqual(['message', 'path']);
  });
});

describe('publishNotice', () => {
  it('emits a notice that fits on app.notice, parsed (params filled in)', () => {
    const events = new EventBus();
    const heard: unknown[] = [];
    events.on('app.notice', (n) => heard.push(n));
    expect(publishNotice(events, { level: 'warning', code: 'report_open_failed', message: 'm', params: { path: '/p', message: 'e' } })).toBe(true);
    expect(publishNotice(events, { level: 'info', code: 'report_open_failed', message: 'n' })).toBe(true);
    expect(heard).toEqual([
      { level: 'warning', code: 'report_open_failed', message: 'm', params: { path: '/p', message: 'e' } },
      { level: 'info', code: 'report_open_failed', message: 'n', params: {} },
    ]);
  });

  it('sends nothing that does not fit, and says why on stderr', () => {
    const events = new EventBus();
    const heard: unknown[] = [];
    events.on('app.notice', (n) => heard.push(n));
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(publishNotice(events, { level: 'warning', code: 'no_such_code', message: 'm' } as never)).toBe(false);
    expect(heard).toEqual([]);
    expect(String(error.mock.calls[0]?.[0])).toMatch(/\[notice\] not sent.*code/);
  });
});
