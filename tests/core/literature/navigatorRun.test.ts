import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../src-main/cli/main';
import { startScriptedModel, type ScriptedModel } from '../../support/scriptedModel';
import { readWithAiSdk, validateDataParts } from '../contract/uiStreamSupport';
import { startNavigatorServer } from '../science/navigator/navigatorServer';

/**
 * Issue 21, acceptance: with the scripted model, a run asks the Science Navigator, then
 * cites two of its `used` references in a cited answer. The `--stream ui` output holds the
 * navigator's thinking steps and the answer's source parts, and the `ai` package reads it
 * whole.
 */

let dir: string;
let model: ScriptedModel | null = null;
let navigator: Awaited<ReturnType<typeof startNavigatorServer>> | null = null;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-navrun-'));
});
afterEach(async () => {
  await model?.close();
  await navigator?.close();
  model = navigator = null;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The evidence ids of the navigator's references, as the tool result listed them to the model. */
function referenceIds(body: unknown): string[] {
  const text = JSON.stringify(body);
  return [...text.matchAll(/\d\. \[(ev_[a-z2-7]{16})\]/g)].map((m) => m[1]!);
}

describe('a run that asks the navigator and cites its references', () => {
  it('completes; --stream ui carries the thinking steps and the source parts and is read whole by the ai package', async () => {
    navigator = await startNavigatorServer({});
    model = await startScriptedModel([
      { reply: [{ toolCall: { name: 'science_navigator', arguments: { question: 'What did CRISPR-Cas9 achieve in gene therapy since 2021?' } } }] },
      (body) => {
        const [first, second] = referenceIds(body);
        if (!first || !second) throw new Error('the navigator result sent to the model lists fewer than two reference evidence ids');
        return {
          reply: [
            {
              toolCall: {
                name: 'finalize_response',
                arguments: {
                  summary: 'CRISPR-Cas9 editing reached patients ex vivo (sickle cell disease, β-thalassemia) and in vivo (transthyretin amyloidosis).',
                  claims: [
                    { statement: 'Ex vivo BCL11A editing removed transfusion dependence in β-thalassemia.', basis: 'observed', evidence: [first], uncertainty: 'small early cohorts' },
                    { statement: 'In vivo TTR editing lowered serum transthyretin.', basis: 'observed', evidence: [second], uncertainty: 'phase 1' },
                  ],
                  limitations: ['Based on the navigator answer and two trials.'],
                  suggested_questions: ['How durable is the TTR knockdown?'],
                  completion_bullets: ['Asked the Science Navigator', 'Cited two trials'],
                },
              },
            },
          ],
        };
      },
    ]);

    let stdout = '';
    let stderr = '';
    const code = await runCli(
      ['run', 'What did CRISPR-Cas9 achieve in gene therapy since 2021?', '--provider', 'openai', '--stream', 'ui'],
      { out: (t) => (stdout += `${t}\n`), err: (t) => (stderr += `${t}\n`), write: (t) => (stdout += t) },
      {
        ...process.env,
        OPENAI4S_DATA_DIR: dir,
        OPENAI4S_OPENAI_BASE_URL: model.baseUrl,
        OPENAI4S_OPENAI_API_KEY: 'sk-test-navigator-run',
        OPENAI4S_BOHRIUM_ACCESS_KEY: 'bohr-acceptance-key-123456',
        OPENAI4S_BOHRIUM_BASE_URL: navigator.base,
        OPENAI4S_KERNEL_PREWARM: '0',
        OPENAI4S_UNATTENDED_APPROVAL: '',
      },
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);

    const { message, errors } = await readWithAiSdk(stdout);
    expect(errors).toEqual([]);
    expect(validateDataParts(message!.parts)).toEqual([]);
    const parts = message!.parts as { type: string; id?: string; data?: unknown; sourceId?: string; url?: string; title?: string; output?: unknown; state?: string }[];

    // The navigator's thought chain, as a tree of thinking steps, completed.
    const steps = parts.filter((p) => p.type === 'data-thinking-step' && String(p.id).startsWith('nav-')).map((p) => p.data as { title: string; status: string; parentId?: string });
    expect(steps.map((s) => s.title)).toEqual(expect.arrayContaining(['Thinking completed', 'Evidence search completed', 'Answer completed']));
    expect(steps.every((s) => s.status === 'completed')).toBe(true);
    expect(steps.filter((s) => s.parentId)).toHaveLength(3);

    // The tool card ends with the final output (not preliminary).
    const card = parts.find((p) => p.type === 'tool-science_navigator')!;
    expect(card.state).toBe('output-available');

    // The answer is cited, with the navigator's suggestions joined to its own.
    const answer = parts.find((p) => p.type === 'data-answer')!.data as { cited: boolean; suggested_questions: string[]; claims: { evidence: string[] }[] };
    expect(answer.cited).toBe(true);
    expect(answer.suggested_questions).toEqual(['How durable is the TTR knockdown?', 'Which CRISPR therapies are approved outside the US?', 'What are the long-term safety data for exa-cel?']);

    // One source part per cited reference: its evidence id, its DOI address and a human label.
    const sources = parts.filter((p) => p.type === 'source-url');
    expect(sources.map((s) => s.sourceId)).toEqual(answer.claims.map((c) => c.evidence[0]));
    expect(sources.map((s) => s.url)).toEqual(['https://doi.org/10.1056/NEJMoa2031054', 'https://doi.org/10.1056/NEJMoa2107454']);
    expect(sources[0]!.title).toBe('Frangoul 2021, New England Journal of Medicine: CRISPR-Cas9 Gene Editing for Sickle Cell Disease and β-Thalassemia');
    expect(sources[1]!.title).toMatch(/^Gillmore 2021, New England Journal of Medicine: /);

    // The access key reached the navigator host only as its Bearer header, and is nowhere in the output.
    expect(navigator.seen.every((s) => s.headers.authorization === 'Bearer bohr-acceptance-key-123456')).toBe(true);
    expect(stdout).not.toContain('bohr-acceptance-key-123456');
  }, 120_000);
});
