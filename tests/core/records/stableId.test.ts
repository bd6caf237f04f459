import { describe, expect, it } from 'vitest';
import { EVIDENCE_ID, stableId } from '../../../src-main/core/records/ids';

describe('stable ids', () => {
  // Stored ledgers and exported bundles cite these ids: the same parts must give the same id
  // in every version of the app. The expected values were made by the first implementation
  // (a streaming SHA-256 over each part and a NUL, base32 of the whole digest, 16 letters).
  it('are the same as every earlier version made them', () => {
    expect(stableId('ev_', 'session-1', 'cell', 'gen-1/cell-3')).toBe('ev_j3miac5r7qqiipml');
    expect(stableId('ev_', 's', 'retrieval', 'UniProt P69905 ✓ é')).toBe('ev_u4wkelajzpr6mp4m');
    expect(stableId('art_')).toBe('art_4oymiquy7qobjgx3');
  });

  it('tell the parts apart (a NUL ends each), and evidence ids match the id pattern', () => {
    expect(stableId('ev_', 'ab', 'c')).not.toBe(stableId('ev_', 'a', 'bc'));
    expect(stableId('ev_', 'a', 'b')).toMatch(EVIDENCE_ID);
  });
});
