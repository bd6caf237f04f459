/** Frames of the worker protocol (DESIGN.md, Kernels); JSON lines on fds 3 and 4. */

export interface ReadyFrame {
  type: 'ready';
  pid: number;
  language: string;
  version: string;
}
export interface DisplayFrame {
  type: 'display';
  id: string;
  data: Record<string, string>;
  figure?: number;
}
export interface HostCallFrame {
  type: 'host_call';
  id: number;
  cell: string | null;
  method: string;
  args: Record<string, unknown>;
}
export interface ResultFrame {
  type: 'result';
  id: string;
  ok: boolean;
  error?: { ename: string; evalue: string; traceback: string; line: number | null };
  usage?: { wall_ms: number; cpu_ms: number; peak_rss_kb?: number };
  /** The worker found fd 1 and fd 2 empty before this frame, so it wrote no end marker. */
  outputs_drained?: boolean;
}
export interface WarmFrame {
  type: 'warm';
  modules: string[];
  ms: number;
}
export type WorkerFrame = ReadyFrame | DisplayFrame | HostCallFrame | ResultFrame | WarmFrame;

/**
 * Splits a byte stream into lines with a bound: a worker that writes a line longer than
 * `maxLine` is broken (or hostile) and reported, never buffered without end.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly onLine: (line: Buffer) => void,
    private readonly onOverflow: (size: number) => void,
    private readonly maxLine = 64 * 1024 * 1024,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl < 0) break;
      const piece = chunk.subarray(start, nl);
      const line = this.parts.length ? Buffer.concat([...this.parts, piece]) : piece;
      this.parts = [];
      this.size = 0;
      if (line.length) this.onLine(line);
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.size += rest.length;
      if (this.size > this.maxLine) {
        this.parts = [];
        const size = this.size;
        this.size = 0;
        this.onOverflow(size);
        return;
      }
      this.parts.push(Buffer.from(rest));
    }
  }
}

export function parseFrame(line: Buffer): WorkerFrame | null {
  try {
    const frame = JSON.parse(line.toString('utf8')) as WorkerFrame;
    return frame && typeof frame === 'object' && typeof frame.type === 'string' ? frame : null;
  } catch {
    return null;
  }
}
