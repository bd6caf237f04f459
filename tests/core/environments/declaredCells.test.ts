import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnvironmentChangeResult } from '../../../src-preload/contract/environments';
import type { KernelCellResult } from '../../../src-preload/contract/kernel';
import { routes } from '../../../src-preload/contract/routes';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createRouter } from '../../../src-main/core/api/router';
import { createCore, type Core } from '../../../src-main/core/core';
import { runCli } from '../../../src-main/cli/main';
import type { GenerationLock } from '../../../src-main/core/export/environmentLock';

// Real cells in each declared science environment (the Debian stack .ci/run installs):
// an RDKit descriptor and a Biopython parse in python-science, a DESeq2 call in r-bioc.
// The export then records, per generation, the environment and what its cells imported.
let dir: string;
let core: Core;
let sessionId: string;
let runId: string;
const caller = { origin: 'app://openai4s', isMainFrame: true };

async function call<T>(route: string, input: unknown = {}): Promise<T> {
  const answer = (await createRouter(routes, createHandlers(core)).handle(route, input, caller)) as { ok: boolean; data?: T; error?: { message: string } };
  if (!answer.ok) throw new Error(answer.error!.message);
  return answer.data as T;
}

/** Runs a cell and records it as the runner does (an action group per cell), so the export attributes its imports. */
async function cell(language: 'python' | 'r', code: string): Promise<KernelCellResult> {
  const group = core.ledger.actions.begin({ sessionId, runId, kind: 'cell', turn: 1, calls: [{ name: language, rawArguments: code, sideEffect: 'write' }] });
  const result = await call<KernelCellResult>('kernel.execute', { sessionId, language, code, timeoutMs: 240_000 });
  core.ledger.actions.finish(group, result.status === 'ok' ? 'completed' : 'failed');
  return result;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-declared-'));
  core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0' } });
  sessionId = core.ledger.createSession('declared environments').id;
  runId = core.ledger.runs.submit(sessionId, 'm-1', 'science cells').run.id;
});
afterAll(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('cells in each declared environment', { timeout: 300_000 }, () => {
  it('python-science: an RDKit descriptor and a Biopython parse', async () => {
    const used = await call<EnvironmentChangeResult>('env.use', { sessionId, environmentId: 'python-science' });
    expect(used.change).toMatchObject({ action: 'use', environmentId: 'python-science', detail: null });
    const rdkit = await cell('python', 'from rdkit import Chem\nfrom rdkit.Chem import Descriptors\nprint(round(Descriptors.MolWt(Chem.MolFromSmiles("CCO")), 2))');
    expect(rdkit.status, rdkit.error?.evalue).toBe('ok');
    expect(rdkit.stdout.trim()).toBe('46.07');
    const bio = await cell('python', 'import io\nfrom Bio import SeqIO\nrec = next(SeqIO.parse(io.StringIO(">INS_HUMAN insulin\\nMALWMRLLPLLALLALWGPDPAAA\\n"), "fasta"))\nprint(rec.id, len(rec.seq))');
    expect(bio.stdout.trim()).toBe('INS_HUMAN 24');
  });

  it('r-bioc: DESeq2 on a tiny count matrix', async () => {
    await call<EnvironmentChangeResult>('env.use', { sessionId, environmentId: 'r-bioc' });
    const code = [
      'suppressPackageStartupMessages(library(DESeq2))',
      'set.seed(1)',
      'counts <- matrix(rnbinom(24 * 4, mu = 100, size = 10), ncol = 4, dimnames = list(paste0("g", 1:24), paste0("s", 1:4)))',
      'counts[1:3, 3:4] <- counts[1:3, 3:4] * 8L',
      'coldata <- data.frame(condition = factor(c("a", "a", "b", "b")), row.names = colnames(counts))',
      'dds <- DESeq(DESeqDataSetFromMatrix(counts, coldata, ~ condition), fitType = "mean", quiet = TRUE)',
      'res <- results(dds)',
      'cat(nrow(res), rownames(res)[which.min(res$padj)], "\\n")',
    ].join('\n');
    const result = await cell('r', code);
    expect(result.status, result.error?.evalue ?? result.stderr).toBe('ok');
    const [rows, top] = result.stdout.trim().split(' ');
    expect(rows).toBe('24');
    expect(['g1', 'g2', 'g3']).toContain(top);
  });

  it('the export records each generation\'s environment and the versions of the packages its cells imported', async () => {
    const { file } = await call<{ file: string }>('session.export', { sessionId, reveal: false });
    const entries = unzipSync(new Uint8Array(fs.readFileSync(file)));
    const generations = (JSON.parse(strFromU8(entries['ledger/kernel_generations.json']!)) as { environmentLock: GenerationLock | null }[]).flatMap((g) => (g.environmentLock ? [g.environmentLock] : []));
    const py = generations.find((g) => g.language === 'python')!;
    expect(py.environment).toBe('python-science');
    expect(py.imported.map((p) => p.module)).toEqual(['Bio', 'rdkit']);
    expect(py.imported.find((p) => p.module === 'Bio')).toMatchObject({ distribution: 'biopython', version: expect.stringMatching(/^\d+\.\d+/) });
    expect(py.imported.find((p) => p.module === 'rdkit')!.version).toMatch(/^\d{4}\./);
    expect(py.requirements).toContainEqual(expect.stringMatching(/^biopython==\d/));
    const r = generations.find((g) => g.language === 'r')!;
    expect(r).toMatchObject({ environment: 'r-bioc', imported: [{ module: 'DESeq2', distribution: null, version: expect.stringMatching(/^\d+\.\d+/) }] });
  });

  it('the doctor and `openai4s env list` show every declared environment, ready, with its install command', async () => {
    const report = await core.doctor(true);
    expect(report.environments!.map((e) => `${e.id}:${e.ready}`)).toEqual(['python-default:true', 'python-science:true', 'r-bioc:true', 'r-default:true']);
    if (process.platform === 'linux') expect(report.environments!.find((e) => e.id === 'r-bioc')!.installCommand).toMatch(/^apt-get install .*r-bioc-deseq2/);
    let out = '';
    let err = '';
    const io = { out: (t: string) => void (out += `${t}\n`), err: (t: string) => void (err += `${t}\n`) };
    const env = { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0' };
    expect(await runCli(['env', 'list', '--session', sessionId, '--json'], io, env)).toBe(0);
    const listed = JSON.parse(out) as { current: { python: { environmentId: string }; r: { environmentId: string } } };
    expect(listed.current).toMatchObject({ python: { environmentId: 'python-science' }, r: { environmentId: 'r-bioc' } });
    expect(await runCli(['env', 'use', 'conda:nope', '--session', sessionId], io, env)).toBe(1);
    expect(err.trim().split('\n')).toEqual([expect.stringMatching(/^openai4s env: No environment "conda:nope" on this machine\. Run env_list/)]);
  });
});
