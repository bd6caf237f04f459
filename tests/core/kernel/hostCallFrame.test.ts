import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkHostCall, decodeFrame, hostCallSchema } from '../../../src-main/core/kernel/frames';

// The hand-written check of the hot host_call frame must accept exactly what the zod schema
// accepts and return the same frame; anything it passes on goes through the schema.

const nameLike = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ minLength: 250, maxLength: 262 }), fc.constant(''));
const rawHostCall = fc.record(
  {
    type: fc.constant('host_call'),
    id: fc.oneof(fc.nat(), fc.integer(), fc.double(), fc.constant(Number.MAX_SAFE_INTEGER), fc.constant(Number.MAX_SAFE_INTEGER + 2), fc.string(), fc.constant(null)),
    cell: fc.oneof(fc.constant(null), nameLike, fc.integer(), fc.constant(undefined)),
    method: fc.oneof(nameLike, fc.integer(), fc.constant(null)),
    args: fc.oneof(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 })), fc.array(fc.integer()), fc.constant(null), fc.string(), fc.integer()),
    extra: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: ['type'] },
);

describe('host_call frame check', () => {
  it('accepts exactly the frames the schema accepts and returns the same frame', () => {
    fc.assert(
      fc.property(rawHostCall, (raw) => {
        // As it arrives: a JSON line parsed (undefined fields are absent).
        const parsed = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
        const byHand = checkHostCall(parsed);
        const bySchema = hostCallSchema.safeParse(parsed);
        expect(byHand !== null).toBe(bySchema.success);
        if (bySchema.success) expect(byHand).toEqual(bySchema.data);
      }),
      { numRuns: 5_000 },
    );
  });

  it('a refused host call still gets its reason and its id from the schema path', () => {
    const decoded = decodeFrame(Buffer.from(JSON.stringify({ type: 'host_call', id: 7, method: '', args: {} })));
    expect(decoded).toMatchObject({ ok: false, hostCallId: 7 });
    expect((decoded as { reason: string }).reason).toMatch(/^host_call frame, method: /);
  });

  it('a valid host call decodes without the keys the protocol does not have', () => {
    const decoded = decodeFrame(Buffer.from(JSON.stringify({ type: 'host_call', id: 3, cell: 'c1', method: 'read_file', args: { path: 'a.txt' }, forged: true })));
    expect(decoded).toEqual({ ok: true, frame: { type: 'host_call', id: 3, cell: 'c1', method: 'read_file', args: { path: 'a.txt' } } });
  });
});
