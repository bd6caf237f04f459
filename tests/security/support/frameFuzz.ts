import { decodeFrame } from '../../../src-main/core/kernel/frames';

/**
 * Random and mutated worker frames for the frame fuzz test: valid frames of every type,
 * then the same with fields removed, retyped, blown up, nested, re-addressed or cut, plus
 * lines of plain noise. Seeded, so a failure can be replayed.
 */

export type Rng = () => number;

/** mulberry32: small, seedable, good enough to pick mutations. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

function nested(rng: Rng, depth: number): unknown {
  let value: unknown = pick(rng, [1, 'x', null, true]);
  for (let i = 0; i < depth; i++) value = rng() < 0.5 ? [value] : { k: value };
  return value;
}

/** A value of a random wrong-ish type. */
function junk(rng: Rng): unknown {
  return pick(rng, [
    () => null,
    () => true,
    () => 0,
    () => -1,
    () => 1.5,
    () => 1e308,
    () => -1e308,
    () => 2 ** 53 + 2,
    () => '',
    () => 'x'.repeat(Math.floor(rng() * 300)),
    () => '\u0000\u001b]52;c;aGk=\u0007',
    () => [],
    () => [1, 'two', null],
    () => ({}),
    () => ({ __proto__: { polluted: true } }),
    () => JSON.parse('{"__proto__": {"polluted": true}}'),
    () => ({ constructor: { prototype: { polluted: true } } }),
    () => nested(rng, 1 + Math.floor(rng() * 200)),
    () => 'A'.repeat(20_000),
  ])();
}

const METHODS = ['echo', 'read_file', 'write_file', 'web_fetch', 'science.search', 'submit_output', 'llm', '', 'constructor', '__proto__', 'toString'];

/** One frame the real worker could have written, addressed to `cellId` (or to another cell). */
function validFrame(rng: Rng, cellId: string): Record<string, unknown> {
  const id = rng() < 0.7 ? cellId : pick(rng, ['another-cell', '', 'x'.repeat(100)]);
  switch (Math.floor(rng() * 6)) {
    case 0:
      return { type: 'ready', pid: Math.floor(rng() * 1e5), language: 'python', version: '3.12.0' };
    case 1:
      return { type: 'warm', modules: ['numpy'], ms: rng() * 100 };
    case 2:
      return { type: 'display', id, data: { 'text/plain': `value ${rng()}`, 'text/html': '<b>x</b>' } };
    case 3:
      // A small valid PNG-ish payload (base64 of a few bytes); rare, as each is a file write.
      return rng() < 0.05 ? { type: 'display', id, figure: 1, data: { 'image/png': Buffer.from([137, 80, 78, 71]).toString('base64') } } : { type: 'display', id, data: { 'text/plain': 'x' } };
    case 4:
      return { type: 'host_call', id: Math.floor(rng() * 1e6), cell: id, method: pick(rng, METHODS), args: { path: 'a.txt', url: 'http://127.0.0.1:1/' } };
    default:
      return {
        type: 'result',
        // A valid result for the running cell would end it early (which a cell may do to
        // itself); the fuzz keeps the cell running, so valid results go to other ids.
        id: `not-${cellId}`,
        ok: rng() < 0.5,
        usage: { wall_ms: rng() * 10, cpu_ms: rng() * 10 },
        error: { ename: 'ValueError', evalue: 'v', traceback: 't', line: 3 },
      };
  }
}

/** Changes one thing of a valid frame: drop, retype, re-address, wrap or cut. */
function mutate(rng: Rng, frame: Record<string, unknown>, cellId: string): Record<string, unknown> | unknown {
  const copy: Record<string, unknown> = structuredClone(frame);
  const keys = Object.keys(copy);
  const key = pick(rng, keys);
  switch (Math.floor(rng() * 9)) {
    case 0:
      delete copy[key];
      return copy;
    case 1:
      copy[key] = junk(rng);
      return copy;
    case 2:
      copy.id = pick(rng, [cellId, null, 7, -3, 1.25, { id: cellId }, [cellId], `${cellId}x`]);
      return copy;
    case 3:
      copy.type = pick(rng, ['display', 'result', 'host_call', 'ready', 'warm', 'stream', 'interrupt', 'execute', 'host_response', '', 5, null]);
      return copy;
    case 4:
      // Deep inside a field: data, args, error, usage.
      for (const inner of ['data', 'args', 'error', 'usage']) {
        if (copy[inner] && typeof copy[inner] === 'object') {
          const obj = copy[inner] as Record<string, unknown>;
          obj[pick(rng, [...Object.keys(obj), 'image/png', 'line', 'wall_ms', 'extra'])] = junk(rng);
        }
      }
      return copy;
    case 5:
      copy.data = pick(rng, [null, [], 'x', 5, { 'image/png': 5 }, { 'image/png': null }, { 'image/png': { b: 1 } }, { 'image/png': '!!!not base64!!!' }]);
      copy.id = cellId;
      copy.type = 'display';
      return copy;
    case 6:
      copy.type = 'host_call';
      copy.id = pick(rng, [1, 2, 3, Math.floor(rng() * 1e9)]);
      copy.method = pick(rng, METHODS);
      copy.args = junk(rng);
      return copy;
    case 7:
      copy.type = 'result';
      copy.id = cellId;
      copy.ok = pick(rng, [true, false]);
      copy.error = pick(rng, [null, {}, 'boom', { ename: 1, evalue: null, traceback: [] }, { ename: 'E' }]);
      copy.usage = pick(rng, [null, 'fast', { wall_ms: -1, cpu_ms: 'x' }, { wall_ms: null }]);
      return copy;
    default:
      return pick(rng, [[copy], null, 42, 'frame', true]);
  }
}

/** One line of noise: bytes that are not JSON (bad UTF-8 included), or JSON cut short. */
function noise(rng: Rng, cellId: string): Buffer {
  if (rng() < 0.5) {
    const text = JSON.stringify(validFrame(rng, cellId));
    return Buffer.from(text.slice(0, Math.floor(rng() * text.length)));
  }
  const bytes = Buffer.alloc(1 + Math.floor(rng() * 200));
  for (let i = 0; i < bytes.length; i++) {
    const b = Math.floor(rng() * 256);
    bytes[i] = b === 10 ? 32 : b; // one line: no newline inside
  }
  return bytes;
}

/** `count` lines (without newlines): about a quarter valid, half mutated, a quarter noise. */
export function fuzzFrames(count: number, cellId: string, seed = 13): Buffer[] {
  const rng = seededRng(seed);
  const lines: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const roll = rng();
    if (roll < 0.25) lines.push(Buffer.from(JSON.stringify(validFrame(rng, cellId))));
    else if (roll < 0.75) lines.push(Buffer.from(JSON.stringify(mutate(rng, validFrame(rng, cellId), cellId)) ?? 'undefined'));
    else lines.push(noise(rng, cellId));
    // A well-formed result for the running cell would end it (a cell may end itself so):
    // the fuzz keeps it running to the end of the batch, so such a line is re-addressed.
    const decoded = decodeFrame(lines[i]!);
    if (decoded.ok && decoded.frame.type === 'result' && decoded.frame.id === cellId) lines[i] = Buffer.from(JSON.stringify({ ...decoded.frame, id: 'elsewhere' }));
  }
  return lines;
}
