import type { CliIO } from './command';

/** A word (no whitespace) longer than this in a one-line message is input echoed back, not the message. */
const LONG_WORD = 256;
/** How much of such a word is kept: enough to recognise what was given. */
const KEPT = 64;

/**
 * Error lines quote what the user gave ("Unknown command "…"", a path that does not
 * exist, a session id, an option value). Given a 100 KB argument, that line was 100 KB:
 * the terminal filled with it and the fix, at the end of the line, scrolled away. A quoted
 * text or a word longer than LONG_WORD in a one-line message keeps its start and says how
 * long it was.
 * Lines with newlines (tracebacks, diffs, cell output) are left whole.
 */
export function clipEchoedInput(line: string): string {
  if (line.length <= LONG_WORD || /\n./.test(line)) return line;
  const clip = (text: string) => `${text.slice(0, KEPT)}…[${text.length.toLocaleString('en-US')} characters]`;
  return line
    .replace(new RegExp(`"([^"\\n]{${LONG_WORD + 1},})"`, 'g'), (_, quoted: string) => `"${clip(quoted)}"`)
    // The sentence's own punctuation after the word stays outside it.
    .replace(new RegExp(`[^\\s"]{${LONG_WORD + 1},}?(?=[.,;:)]*(?:[\\s"]|$))`, 'g'), clip);
}

/** The IO whose one-line error messages have long echoed words clipped (raw stream writes are untouched). */
export function clippedErrors(io: CliIO): CliIO {
  return { ...io, err: (t) => io.err(clipEchoedInput(t)) };
}
