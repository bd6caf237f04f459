import type { UIMessageChunk } from '../../../src-preload/contract/stream';
import { protocolConverter } from './protocolStream';

/** How long a patched snapshot may wait for the next chunk before it is sent anyway. */
export const SNAPSHOT_FLUSH_MS = 250;

export interface ProtocolSink {
  push(chunk: UIMessageChunk): void;
  /** Sends what is held and stops the timer; call before the stream's end (e.g. `[DONE]`). */
  end(): void;
}

/**
 * The protocol converter on a clock: a cell that prints for minutes still shows its output
 * to a reader every `flushMs`, while a burst of 10k lines becomes a few snapshots.
 */
export function protocolSink(send: (chunk: UIMessageChunk) => void, flushMs = SNAPSHOT_FLUSH_MS): ProtocolSink {
  const converter = protocolConverter();
  let timer: NodeJS.Timeout | undefined;
  const sendAll = (chunks: UIMessageChunk[]) => {
    for (const c of chunks) send(c);
  };
  const stopTimer = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  return {
    push(chunk) {
      sendAll(converter.push(chunk));
      if (!converter.pending) stopTimer();
      else if (!timer) {
        timer = setTimeout(() => {
          timer = undefined;
          sendAll(converter.flush());
        }, flushMs);
        // A held snapshot never keeps the process alive: end() sends it.
        timer.unref();
      }
    },
    end() {
      stopTimer();
      sendAll(converter.flush());
    },
  };
}
