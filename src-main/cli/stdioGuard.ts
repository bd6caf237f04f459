/**
 * `openai4s sessions | head -1`: once the reader goes away, writing to stdout fails
 * with EPIPE, and an unhandled stream error prints a stack trace. The CLI instead notes
 * that the stream is closed, drops later writes and lets the command finish quietly;
 * a running `run` is stopped as cancelled (nobody reads it any more).
 */

type Listener = () => void;

const closed = new WeakSet<NodeJS.WriteStream>();
const listeners = new Set<Listener>();

function guard(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    if (closed.has(stream)) return;
    closed.add(stream);
    if (stream === process.stdout) for (const l of [...listeners]) l();
  });
}

/** Installs the EPIPE handling on stdout and stderr (once, at start). */
export function guardStdio(): void {
  guard(process.stdout);
  guard(process.stderr);
}

/** Writes unless the reader of `stream` has gone away. */
export function writeIfOpen(stream: NodeJS.WriteStream, text: string): void {
  if (closed.has(stream) || stream.destroyed) return;
  stream.write(text);
}

/** Calls `listener` when stdout's reader goes away; returns the unsubscribe. */
export function onStdoutClosed(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
