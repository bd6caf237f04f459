/**
 * Untrusted text (model replies, cell output, answers, session titles, error messages
 * that quote input) must not drive the terminal: OSC 52 writes the clipboard, OSC 0 sets
 * the window title, OSC 8 makes links, CSI moves the cursor and rewrites what was printed,
 * DCS talks to the terminal itself. Everything the CLI prints goes through `safeIO`, and
 * the printers strip untrusted pieces completely before adding our own colours.
 *
 * Stripping works per string, so it holds across streamed chunks: an escape split over
 * two deltas loses its ESC in the first, and what remains prints as plain text.
 */
import { scrubSecrets } from '../core/security/secrets';
import type { CliIO } from './command';

// Sequences, 7-bit (ESC ...) and 8-bit (C1) forms. Terminated strings go whole; an
// unterminated one loses its introducer, so its payload shows as harmless text. No
// pattern reaches over a newline, a double quote or a backslash: the same filter runs
// over JSON output (where C1 characters stay raw), and must never cut a JSON string open.
const SEQUENCE = new RegExp(
  [
    String.raw`(?:\x1b\[|\x9b)[0-?]*[ !#-/]*[@-\[\]-~]`, // CSI (cursor moves, erase, SGR, ...)
    String.raw`(?:\x1b\]|\x9d)[^\x07\x1b\x9c\n"\\]*(?:\x07|\x1b\\|\x9c)`, // OSC (title, clipboard, links)
    String.raw`(?:\x1b[PX^_]|[\x90\x98\x9e\x9f])[^\x1b\x9c\n"\\]*(?:\x1b\\|\x9c)`, // DCS, SOS, PM, APC
    String.raw`\x1b[ !#-/]*[0-\[\]-~]`, // other escapes (charset, keypad, reset, ...)
  ].join('|'),
  'g',
);
/** Select Graphic Rendition (colours, bold, dim): the only sequence `safeForTerminal` keeps. */
// eslint-disable-next-line no-control-regex
const SGR = /^\x1b\[[0-9;:]*m$/;
/** C0 controls but tab and newline, DEL, and C1 controls. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

function clean(text: string, keepSgr: boolean): string {
  if (!text) return text;
  return (
    text
      .replace(SEQUENCE, (seq) => (keepSgr && SGR.test(seq) ? seq : ''))
      // A lone CR returns to the line start and lets later text overprint what was shown.
      .replace(/\r\n?/g, '\n')
      .replace(CONTROL, (c, offset: number, whole: string) => (keepSgr && c === '\x1b' && SGR.test(sgrAt(whole, offset)) ? c : ''))
  );
}

function sgrAt(text: string, offset: number): string {
  // eslint-disable-next-line no-control-regex
  return /^\x1b\[[0-9;:]*m/.exec(text.slice(offset, offset + 32))?.[0] ?? '';
}

/** Removes every control sequence and control character but newline and tab. For untrusted text. */
export function stripTerminalControls(text: string): string {
  return clean(text, false);
}

/** The same, but colours (SGR) survive: the last filter on everything the CLI writes. */
export function safeForTerminal(text: string): string {
  return clean(text, true);
}

/**
 * An IO whose every write is filtered with `safeForTerminal` (JSON output stays valid:
 * JSON escapes C0 itself, and C1 characters are only stripped) and scrubbed of secrets
 * (rows stored before scrubbing existed, a cell printing a variable from the environment).
 */
export function safeIO(io: CliIO): CliIO {
  const write = io.write;
  const writeErr = io.writeErr;
  const filter = (t: string) => safeForTerminal(scrubSecrets(t));
  return {
    ...io,
    out: (t) => io.out(filter(t)),
    err: (t) => io.err(filter(t)),
    ...(write ? { write: (t: string) => write(filter(t)) } : {}),
    ...(writeErr ? { writeErr: (t: string) => writeErr(filter(t)) } : {}),
  };
}
