import type { KernelCellResult } from '../../../src-preload/contract/kernel';
import type { CliIO } from '../command';

type Stream = 'stdout' | 'stderr';

/** How long a partial stdout line (a prompt, `print(..., end="")`) waits for its newline before it shows. */
const PARTIAL_LINE_MS = 300;

/**
 * Prints a running cell's stdout and stderr as the kernel streams them, then, at the end,
 * only what the result holds beyond what was streamed (the result repeats the whole output).
 *
 * Output goes out whole lines at a time: everything the CLI prints is scrubbed of secrets
 * and terminal escapes per piece of text (terminalText.ts), and a key or an escape cut in
 * two by the kernel's 50 ms coalescing would pass the filter in halves. A stdout line
 * without its newline still shows after PARTIAL_LINE_MS (stderr has no raw writer, and
 * waits for its newline or the cell's end).
 */
export function cellStreamPrinter(io: CliIO) {
  const streamed: Record<Stream, string> = { stdout: '', stderr: '' };
  const held: Record<Stream, string> = { stdout: '', stderr: '' };
  // Whether the last stdout written raw ended a line (the end adds the newline `out` would have).
  let stdoutAtLineStart = true;
  let partialTimer: NodeJS.Timeout | null = null;

  const emit = (stream: Stream, text: string) => {
    if (!text) return;
    if (stream === 'stdout' && io.write) {
      io.write(text);
      stdoutAtLineStart = text.endsWith('\n');
      return;
    }
    // `out` and `err` end each call with a newline: the text's own last one is theirs.
    (stream === 'stdout' ? io.out : io.err)(text.replace(/\n$/, ''));
  };

  const flushPartial = () => {
    partialTimer = null;
    const text = held.stdout;
    held.stdout = '';
    emit('stdout', text);
  };

  const push = (stream: Stream, text: string) => {
    streamed[stream] += text;
    const all = held[stream] + text;
    // A carriage return ends a line too: the terminal filter turns it into a newline.
    const end = Math.max(all.lastIndexOf('\n'), all.slice(0, -1).lastIndexOf('\r')) + 1;
    held[stream] = all.slice(end);
    emit(stream, all.slice(0, end));
    if (stream !== 'stdout' || !io.write) return;
    if (partialTimer) clearTimeout(partialTimer);
    partialTimer = held.stdout ? setTimeout(flushPartial, PARTIAL_LINE_MS) : null;
  };

  return {
    /** Text of the running cell, as `ExecuteOptions.onOutput` gives it. */
    push,
    /** The cell ended: prints what was held and what the result has that was not streamed. */
    finish(result: Pick<KernelCellResult, 'stdout' | 'stderr'> | null): void {
      for (const stream of ['stdout', 'stderr'] as const) {
        const full = result?.[stream] ?? '';
        // The kernel streams exactly what it keeps; a result that does not start with the
        // streamed text has nothing more that can be told apart from what was printed.
        if (full.length > streamed[stream].length && full.startsWith(streamed[stream])) push(stream, full.slice(streamed[stream].length));
        const text = held[stream];
        held[stream] = '';
        emit(stream, text);
      }
      if (partialTimer) clearTimeout(partialTimer);
      partialTimer = null;
      if (!stdoutAtLineStart) io.write?.('\n');
      stdoutAtLineStart = true;
    },
  };
}
