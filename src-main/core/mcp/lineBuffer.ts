import { deserializeMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * A stdio read buffer in linear time, for the SDK's StdioClientTransport. The SDK's own
 * concatenates every chunk onto the whole unread buffer and scans it again for a newline,
 * so a server that writes a 10 MiB line costs the app's main process about 18 s of CPU
 * before the size cap stops it. This one keeps the chunks of the line in progress and looks
 * for newlines only in each new chunk; the cap and its error are the SDK's (a line over it
 * closes the connection, and the connection names the cap).
 */
export class LineBuffer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private readonly lines: Buffer[] = [];

  constructor(private readonly maxBytes = STDIO_DEFAULT_MAX_BUFFER_SIZE) {}

  append(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.pending.push(chunk.subarray(start, nl));
      this.lines.push(Buffer.concat(this.pending));
      this.pending = [];
      this.pendingBytes = 0;
      start = nl + 1;
    }
    if (start < chunk.length) {
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > this.maxBytes) {
        this.clear();
        throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBytes} bytes`);
      }
      this.pending.push(chunk.subarray(start));
    }
  }

  readMessage(): JSONRPCMessage | null {
    const line = this.lines.shift();
    return line === undefined ? null : deserializeMessage(line.toString('utf8').replace(/\r$/, ''));
  }

  clear(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.lines.length = 0;
  }
}

/** Puts a LineBuffer in place of the transport's own (a private field); false if this SDK version has none. */
export function installLineBuffer(transport: object): boolean {
  const t = transport as { _readBuffer?: { append?: unknown; readMessage?: unknown } };
  if (typeof t._readBuffer?.append !== 'function' || typeof t._readBuffer.readMessage !== 'function') return false;
  (t as { _readBuffer: LineBuffer })._readBuffer = new LineBuffer();
  return true;
}
