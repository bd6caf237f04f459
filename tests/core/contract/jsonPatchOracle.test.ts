import fc from 'fast-check';
import jsonpatch, { type Operation } from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { applyJsonPatch } from '../../../src-preload/contract/jsonPatch';
import type { JsonPatchOperation } from '../../../src-preload/contract/stream';

/**
 * The contract applies RFC 6902 with its own small immutable implementation (it may
 * import only zod). fast-json-patch, the well-kept library the design names, is the
 * oracle: on random documents and patches both must agree, on the result or on refusing.
 */
const key = fc.constantFrom('a', 'b', 'c', 'x~y', 'p/q');
const leaf = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom('s', 't', true, null));
const doc = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(key, tie('node'), { maxKeys: 3 })),
})).node;

const escape = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
const pointerOf = (minLength: number) =>
  fc.array(fc.oneof(key.map(escape), fc.constantFrom('0', '1', '2', '-')), { minLength, maxLength: 3 }).map((t) => t.map((x) => `/${x}`).join(''));
const pointer = pointerOf(0);
// Removing or moving the whole document has no defined result (RFC 6902 leaves nothing behind); both refuse or differ.
const inner = pointerOf(1);

const op: fc.Arbitrary<JsonPatchOperation> = fc.oneof(
  fc.record({ op: fc.constantFrom('add' as const, 'replace' as const, 'test' as const), path: pointer, value: leaf }),
  fc.record({ op: fc.constant('remove' as const), path: inner }),
  fc.record({ op: fc.constantFrom('move' as const, 'copy' as const), from: inner, path: pointer }),
);

function oracle(document: unknown, ops: JsonPatchOperation[]): { ok: true; value: unknown } | { ok: false } {
  try {
    const result = jsonpatch.applyPatch(structuredClone(document), structuredClone(ops) as Operation[], true, false);
    return { ok: true, value: result.newDocument };
  } catch {
    return { ok: false };
  }
}

function ours(document: unknown, ops: JsonPatchOperation[]): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: applyJsonPatch(document, ops) };
  } catch {
    return { ok: false };
  }
}

describe('the contract JSON patch agrees with fast-json-patch', () => {
  it('on random documents and patches: the same result whenever both apply, never mutating its input', () => {
    let bothApplied = 0;
    fc.assert(
      fc.property(fc.oneof(fc.array(doc, { maxLength: 3 }), fc.dictionary(key, doc, { maxKeys: 3 })), fc.array(op, { maxLength: 4 }), (document, ops) => {
        const before = structuredClone(document);
        const expected = oracle(document, ops);
        const actual = ours(document, ops);
        expect(document).toEqual(before);
        // fast-json-patch is laxer in places RFC 6902 is not (a missing "from" of a move to
        // the root passes its validation), so a refusal of ours is not compared; a result is.
        if (actual.ok && expected.ok) {
          bothApplied++;
          expect(actual.value).toEqual(expected.value);
        }
        if (!expected.ok) expect(actual.ok).toBe(false);
      }),
      { numRuns: 3000 },
    );
    // The property is not vacuous: many patches applied on both sides.
    expect(bothApplied).toBeGreaterThan(500);
  });
});
