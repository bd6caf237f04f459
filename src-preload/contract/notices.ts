import { z } from 'zod';

/**
 * `app.notice`: a line main pushes to the window's notices. `code` names its kind so the
 * window says it in its own language (src-renderer/src/errors/noticeText.ts), `params`
 * filling that sentence; `message` is main's English, shown by a window that does not
 * know the code (or lacks a param its sentence needs). Main parses each notice with this
 * schema before it is sent (core/events/notice.ts); the window does not parse events.
 */
export const APP_NOTICE_CODES = [
  /** A session package the OS handed over could not be verified or shown. Params: file (its name), path, message. */
  'package_open_failed',
  /** A verified package's report did not open in the system's viewer. Params: path, message. */
  'report_open_failed',
] as const;

export type AppNoticeCode = (typeof APP_NOTICE_CODES)[number];

export const appNoticeSchema = z
  .object({
    level: z.enum(['info', 'warning', 'error']),
    code: z.enum(APP_NOTICE_CODES),
    message: z.string().min(1).max(4000),
    /** Specifics the code's sentence names (a file, a path, the system's own words). */
    params: z.record(z.string().regex(/^\w{1,32}$/), z.string().max(4000)).default({}),
  })
  .strict();

/** What the window receives. */
export type AppNoticeEvent = z.output<typeof appNoticeSchema>;
/** What main hands to the emitter (`params` may be left out). */
export type AppNoticeInput = z.input<typeof appNoticeSchema>;
