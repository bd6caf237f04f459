import { describe, expect, it } from 'vitest';
import { noneReady, readyProviders, setupNeededFor, setupStartProvider, targetProvider } from '../../src-renderer/src/store/readiness';
import { summarizeRefusals, refusalReasons } from '../../src-renderer/src/errors/finalizeAttempts';
import { firstRunProviders } from './support';

describe('readiness', () => {
  it('a first start has nothing ready: the welcome screen offers the setup, sending opens it for the default', () => {
    const view = firstRunProviders();
    expect(noneReady(view)).toBe(true);
    expect(readyProviders(view)).toEqual([]);
    expect(setupNeededFor(view, null)).toBe('ark');
    expect(setupNeededFor(view, 'ollama')).toBe('ollama');
    expect(setupStartProvider(view, null)).toBe('ark');
    expect(setupStartProvider(view, 'ollama')).toBe('ollama');
  });

  it('a ready provider lets the message go; an unknown view never blocks (the run reports what is missing)', () => {
    const view = firstRunProviders();
    view.providers[1]!.readiness = { state: 'ready' };
    expect(noneReady(view)).toBe(false);
    expect(setupNeededFor(view, 'openai')).toBeNull();
    expect(setupNeededFor(view, null)).toBe('ark');
    expect(setupNeededFor(null, null)).toBeNull();
    expect(noneReady(null)).toBe(false);
  });

  it('the target is the chosen provider, else the default', () => {
    const view = firstRunProviders();
    expect(targetProvider(view, 'openai')?.id).toBe('openai');
    expect(targetProvider(view, null)?.id).toBe('ark');
    expect(targetProvider(view, 'gone')?.id).toBe('ark');
  });
});

describe('refused answers', () => {
  const refusal = (...errors: string[]) => `finalize_response was not accepted. Fix these and call it again:\n- ${errors.join('\n- ')}`;

  it('names why each attempt was refused, once each', () => {
    expect(refusalReasons(refusal('claims.0: a observed claim must cite at least one evidence id; use basis "inferred"', 'claims.1: a computed claim must cite at least one evidence id'))).toEqual(['uncited']);
    expect(refusalReasons(refusal('claims.0.evidence: no evidence "ev_x" exists in this session; cite the ev_ ids'))).toEqual(['unknownEvidence']);
    expect(refusalReasons(refusal('arguments are not valid JSON: Unexpected token'))).toEqual(['json']);
    expect(refusalReasons(refusal('limitations: Too small: expected array to have >=1 items'))).toEqual(['format']);
  });

  it('summarises the attempts: fixed on a later try, still being fixed, or the run ended without a valid answer', () => {
    const two = [refusal('claims.0: a observed claim must cite at least one evidence id'), refusal('claims.0: a observed claim must cite at least one evidence id')];
    expect(summarizeRefusals(two, true, false)).toEqual({ refused: 2, reasons: ['uncited'], outcome: 'fixed' });
    expect(summarizeRefusals(two, false, true).outcome).toBe('retrying');
    expect(summarizeRefusals(two, false, false).outcome).toBe('failed');
  });
});
