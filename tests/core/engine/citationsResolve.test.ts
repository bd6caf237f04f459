import { describe, expect, it } from 'vitest';
import { checkCitedAnswer } from '../../../src-main/core/engine/finalize';
import { runEngine } from '../../../src-main/core/engine/loop';
import type { EnginePorts } from '../../../src-main/core/engine/ports';
import { sessionEvidenceLookup } from '../../../src-main/core/runner/evidenceLookup';
import { MemoryEvidenceStore } from '../../../src-main/core/records/evidenceStore';
import type { HostCallContext } from '../../../src-main/core/kernel/hostCalls';
import { createCellProtocol } from '../../../src-main/core/runner/cellProtocol';
import { RecordingMockModel, finish, toolCall } from '../../support/mockModel';
import { LiveRuns } from '../../../src-main/core/engine/liveRuns';

/** A run is live in the session (a cell of it may submit an answer). */
function runningIn(sessionId: string): LiveRuns {
  const live = new LiveRuns();
  live.start(sessionId, { runId: 'r1', model: null, emit: () => undefined, signal: new AbortController().signal });
  return live;
}

/** Evidence recorded in session A; answers are given in session B. */
function twoSessions() {
  const store = new MemoryEvidenceStore();
  const foreign = store.record({ sessionId: 'sA', kind: 'page', key: 'https://example.org/a', title: 'A page', snippet: 'a', envelope: {} });
  const own = store.record({ sessionId: 'sB', kind: 'page', key: 'https://example.org/b', title: 'B page', snippet: 'b', envelope: {} });
  return { store, foreign: foreign.id, own: own.id, lookupB: sessionEvidenceLookup(store, 'sB') };
}

const answerCiting = (basis: string, ids: string[]) => ({
  summary: 'Insulin is a peptide hormone.',
  claims: [{ statement: 'Insulin is a peptide hormone.', basis, evidence: ids, uncertainty: 'low' }],
  limitations: ['One source.'],
  completion_bullets: ['Answered'],
});

describe('every cited id resolves in its own session, whatever the basis', () => {
  for (const basis of ['observed', 'computed', 'inferred', 'generated']) {
    it(`refuses a foreign evidence id on a ${basis} claim by name, and says how to fix the citation`, async () => {
      const { foreign, own, lookupB } = twoSessions();
      const check = await checkCitedAnswer(answerCiting(basis, [own, foreign]), lookupB);
      expect(check.ok).toBe(false);
      const errors = check.ok ? [] : check.errors.join('\n');
      expect(errors).toContain(`"${foreign}"`);
      expect(errors).not.toContain(`"${own}"`);
      // The refusal never suggests relabelling the claim to get past the check.
      expect(errors).not.toMatch(/inferred|generated/);
    });
  }

  it('accepts an own id on any basis and a generated claim citing nothing', async () => {
    const { own, lookupB } = twoSessions();
    for (const basis of ['observed', 'computed', 'inferred', 'generated']) {
      expect((await checkCitedAnswer(answerCiting(basis, [own]), lookupB)).ok).toBe(true);
    }
    expect((await checkCitedAnswer(answerCiting('generated', []), lookupB)).ok).toBe(true);
  });

  it('host.submit_output refuses a foreign id on an inferred claim', async () => {
    const { store, foreign } = twoSessions();
    const protocol = createCellProtocol({
      liveRuns: runningIn('sB'),
      evidenceFor: (sessionId) => sessionEvidenceLookup(store, sessionId),
    });
    const ctx = { sessionId: 'sB', cellId: 'c1' } as HostCallContext;
    await expect(protocol.handlers.submit_output!('submit_output', answerCiting('inferred', [foreign]), ctx)).rejects.toThrow(
      new RegExp(`submit_output was not accepted: .*"${foreign}"`),
    );
    expect(protocol.takeSubmitted('sB')).toBeUndefined();
  });

  it('a model that insists on a foreign id ends the run as invalid_output, and nothing foreign is stored', async () => {
    const { foreign, lookupB } = twoSessions();
    const insist = [...toolCall('f', 'finalize_response', answerCiting('inferred', [foreign])), finish('tool-calls')];
    const model = new RecordingMockModel([insist, insist, insist, insist]);
    const chunks: unknown[] = [];
    const ports: EnginePorts = {
      model,
      executor: { executeBatch: async () => [] },
      kernel: { executeCell: async () => ({ ok: true, summary: '' }) },
      context: { prepare: (h) => [...h] },
      sink: { emit: (c) => chunks.push(c) },
      evidence: lookupB,
    };
    const result = await runEngine(ports, {
      sessionId: 'sB',
      runId: 'r1',
      system: 'sys',
      tools: [],
      history: [{ role: 'user', content: 'What is insulin?' }],
      signal: new AbortController().signal,
    });
    expect(result).toMatchObject({ status: 'failed', failureCode: 'invalid_output' });
    expect(result.answer).toBeFalsy();
    expect(JSON.stringify(chunks)).not.toMatch(/"type":"data-answer"/);
  });
});
