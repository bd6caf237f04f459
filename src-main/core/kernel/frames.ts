import { z } from 'zod';

/**
 * Frames of the worker protocol (DESIGN.md, Kernels); JSON lines on fds 3 (out) and 4 (in), with host-call answers on fd 5 for the Python worker.
 *
 * Everything a worker writes is untrusted: a cell can write to fd 3 itself and forge
 * any frame. Each frame is checked against its schema before the host acts on it, and
 * one that does not fit is dropped with the reason (see `decodeFrame`).
 */

/** Longest method name or error name the host accepts (real ones are a few dozen bytes). */
const NAME_MAX = 256;
/** Longest figure title (UTF-16 units: 200 code points at 2 units each). */
const FIGURE_TITLE_MAX = 400;
const nonNegative = z.number().finite().nonnegative();

const readySchema = z.object({
  type: z.literal('ready'),
  pid: z.number().int().nonnegative(),
  language: z.string().max(NAME_MAX),
  version: z.string().max(NAME_MAX),
});
const warmSchema = z.object({
  type: z.literal('warm'),
  modules: z.array(z.string().max(NAME_MAX)),
  ms: nonNegative,
});
const displaySchema = z.object({
  type: z.literal('display'),
  id: z.string().min(1).max(NAME_MAX),
  // Every value a worker sends is text: base64 for images, markup or plain text otherwise.
  data: z.record(z.string().max(NAME_MAX), z.string()),
  figure: z.number().int().optional(),
  // The figure's suptitle or axes title, which names its file (the worker cuts it to 200 code points).
  title: z.string().max(FIGURE_TITLE_MAX).optional(),
});
/** Also checked by hand in `checkHostCall` (the hot frame); keep the two in step (hostCallFrame.test.ts compares them). */
export const hostCallSchema = z.object({
  type: z.literal('host_call'),
  id: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  cell: z.string().max(NAME_MAX).nullable().optional(),
  method: z.string().min(1).max(NAME_MAX),
  args: z.record(z.string(), z.unknown()),
});
const resultSchema = z.object({
  type: z.literal('result'),
  id: z.string().min(1).max(NAME_MAX),
  ok: z.boolean(),
  error: z
    .object({
      ename: z.string().max(NAME_MAX),
      evalue: z.string(),
      traceback: z.string(),
      // A line the worker could not tell (R may send an empty vector) is no line, not a bad frame.
      line: z.number().int().nullable().optional().catch(null),
    })
    .optional(),
  usage: z.object({ wall_ms: nonNegative, cpu_ms: nonNegative, peak_rss_kb: nonNegative.optional() }).optional(),
  /** The worker found fd 1 and fd 2 empty before this frame, so it wrote no end marker. */
  outputs_drained: z.boolean().optional(),
});

const SCHEMAS = {
  ready: readySchema,
  warm: warmSchema,
  display: displaySchema,
  host_call: hostCallSchema,
  result: resultSchema,
} as const;

export type ReadyFrame = z.infer<typeof readySchema>;
export type WarmFrame = z.infer<typeof warmSchema>;
export type DisplayFrame = z.infer<typeof displaySchema>;
export type HostCallFrame = z.infer<typeof hostCallSchema>;
export type ResultFrame = z.infer<typeof resultSchema>;
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
    private readonly maxLine = MAX_FRAME_BYTES,
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

/** The longest protocol line a worker may send; the workers keep theirs far below it. */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** A decoded frame, or why the line was dropped (and, for a broken host call, the id to answer). */
export type FrameDecode = { ok: true; frame: WorkerFrame } | { ok: false; reason: string; hostCallId?: number };

const REASON_MAX = 200;

function shortReason(issues: readonly z.core.$ZodIssue[]): string {
  const first = issues[0];
  if (!first) return 'it does not match the protocol';
  const where = first.path.length ? first.path.map(String).join('.') : 'frame';
  const text = `${where}: ${first.message}`;
  return text.length > REASON_MAX ? `${text.slice(0, REASON_MAX)}…` : text;
}

/**
 * `hostCallSchema`'s rules written out by hand, for the frame a cell's burst of host calls
 * repeats thousands of times a second: a zod parse of it was about a twentieth of a host
 * call's main-thread time. The frame it returns is the one the schema returns (the same
 * fields, extra keys left out); null for anything the schema might refuse, which then goes
 * through the schema so the reason is named as for any other frame. `args` is the parsed
 * object itself, not a copy (nothing else holds it).
 */
export function checkHostCall(raw: Record<string, unknown>): HostCallFrame | null {
  const { id, cell, method, args } = raw;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return null;
  if (cell !== undefined && cell !== null && (typeof cell !== 'string' || cell.length > NAME_MAX)) return null;
  if (typeof method !== 'string' || method.length === 0 || method.length > NAME_MAX) return null;
  if (args === null || typeof args !== 'object' || Array.isArray(args) || Object.getPrototypeOf(args) !== Object.prototype) return null;
  const record = args as Record<string, unknown>;
  return cell === undefined ? { type: 'host_call', id, method, args: record } : { type: 'host_call', id, cell, method, args: record };
}

/**
 * Parses and validates one line from a worker. Never throws: a line that is not JSON,
 * not an object, of an unknown type or with a field of the wrong type or size comes
 * back as `{ok: false, reason}`. A malformed `host_call` whose id is usable carries it,
 * so the host can answer with an error instead of leaving the cell waiting.
 */
export function decodeFrame(line: Buffer): FrameDecode {
  let raw: unknown;
  try {
    raw = JSON.parse(line.toString('utf8'));
  } catch {
    return { ok: false, reason: 'the line is not JSON' };
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, reason: 'the frame is not a JSON object' };
  const type = (raw as { type?: unknown }).type;
  if (typeof type !== 'string' || !Object.hasOwn(SCHEMAS, type)) {
    const shown = typeof type === 'string' ? `"${type.slice(0, 40)}"` : typeof type;
    return { ok: false, reason: `unknown frame type ${shown}` };
  }
  if (type === 'host_call') {
    const frame = checkHostCall(raw as Record<string, unknown>);
    if (frame) return { ok: true, frame };
  }
  const parsed = SCHEMAS[type as keyof typeof SCHEMAS].safeParse(raw);
  if (parsed.success) return { ok: true, frame: parsed.data as WorkerFrame };
  const reason = `${type} frame, ${shortReason(parsed.error.issues)}`;
  const id = (raw as { id?: unknown }).id;
  if (type === 'host_call' && Number.isSafeInteger(id) && (id as number) >= 0) return { ok: false, reason, hostCallId: id as number };
  return { ok: false, reason };
}
