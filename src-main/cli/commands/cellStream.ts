import type { KernelCellResult } from '../../../src-preload/contract/kernel';
import type { CliIO } from '../command';

type Stream = 'stdout' | 'stderr';
const STREAMS = ['stdout', 'stderr'] as const;

/** How long a partial line (a prompt, `print(..., end="")`, a progress bar on stderr) waits for its newline before it shows. */
const PARTIAL_LINE_MS = 300;

/**
 * Prints a running cell's stdout and stderr as the kernel streams them, then, at the end,
 * only what the result holds beyond what was streamed (the result repeats the whole output).
 *
 * Output goes out whole lines at a time: everything the CLI prints is scrubbed of secrets
 * and terminal escapes per piece of text (terminalText.ts), and a key or an escape cut in
 * two by the kernel's 50 ms coalescing would pass the filter in halves. A line without its
 * newline still shows after PARTIAL_LINE_MS, on either stream (tqdm and `warnings` write
 * stderr in pieces); an IO without a raw writer for a stream holds it to the newline or the end.
 */
export function cellStreamPrinter(io: CliIO) {
  const raw: Record<Stream, ((text: string) => void) | undefined> = { stdout: io.write, stderr: io.writeErr };
  const streamed: Record<Stream, string> = { stdout: '', stderr: '' };
  const held: Record<Stream, string> = { stdout: '', stderr: '' };
  // Whether the last text written raw ended a line (the end adds the newline `out`/`err` would have).
  const atLineStart: Record<Stream, boolean> = { stdout: true, stderr: true };
  const timers: Record<Stream, NodeJS.Timeout | null> = { stdout: null, stderr: null };

  const emit = (stream: Stream, text: string) => {
    if (!text) return;
    const write = raw[stream];
    if (write) {
      write(text);
      atLineStart[stream] = text.endsWith('\n');
      return;
    }
    // `out` and `err` end each call with a newline: the text's own last one is theirs.
    (stream === 'stdout' ? io.out : io.err)(text.replace(/\n$/, ''));
  };

  const stopTimer = (stream: Stream) => {
    const timer = timers[stream];
    if (timer) clearTimeout(timer);
    timers[stream] = null;
  };

  const flushPartial = (stream: Stream) => {
    timers[stream] = null;
    const text = held[stream];
    held[stream] = '';
    emit(stream, text);
  };

  const push = (stream: Stream, text: string) => {
    streamed[stream] += text;
    const all = held[stream] + text;
    // A carriage return ends a line too: the terminal filter turns it into a newline.
    const end = Math.max(all.lastIndexOf('\n'), all.slice(0, -1).lastIndexOf('\r')) + 1;
    held[stream] = all.slice(end);
    emit(stream, all.slice(0, end));
    if (!raw[stream]) return;
    stopTimer(stream);
    if (held[stream]) timers[stream] = setTimeout(() => flushPartial(stream), PARTIAL_LINE_MS);
  };

  return {
    /** Text of the running cell, as `ExecuteOptions.onOutput` gives it. */
    push,
    /** The cell ended: prints what was held and what the result has that was not streamed. */
    finish(result: Pick<KernelCellResult, 'stdout' | 'stderr'> | null): void {
      for (const stream of STREAMS) {
        const full = result?.[stream] ?? '';
        // The kernel streams exactly what it keeps; a result that does not start with the
        // streamed text has nothing more that can be told apart from what was printed.
        if (full.length > streamed[stream].length && full.startsWith(streamed[stream])) push(stream, full.slice(streamed[stream].length));
        stopTimer(stream);
        const text = held[stream];
        held[stream] = '';
        emit(stream, text);
        if (!atLineStart[stream]) raw[stream]?.('\n');
        atLineStart[stream] = true;
      }
    },
  };
}
