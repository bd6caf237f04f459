import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CitedAnswer } from '../../../src-preload/contract/answer';
import { runCli } from '../../../src-main/cli/main';
import { createCore, type Core } from '../../../src-main/core/core';
import { startInsulinDemo, type DemoEnvironment } from '../../../src-main/core/demo/demo';
import { INSULIN_QUESTION } from '../../../src-main/core/demo/insulinStory';

/**
 * The first user story, offline: the real engine, the real sandboxed kernel, the real
 * connectors and the real OpenAI wire, with the scripted model server playing the model
 * and a loopback server answering with recorded real UniProt and RCSB payloads.
 */
let dir: string;
let demo: DemoEnvironment;
let out = '';
let err = '';
let code: number;

const env = () => ({ ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0' });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-story-'));
  demo = await startInsulinDemo();
  code = await runCli(
    ['run', INSULIN_QUESTION, '--title', demo.title, '--stream', 'ui'],
    { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`), write: (t) => (out += t) },
    { ...env(), ...demo.env },
  );
}, 120_000);

afterAll(async () => {
  await demo.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function withCore<T>(fn: (core: Core, sessionId: string) => T): Promise<T> {
  const core = createCore({ env: env() });
  const [session] = core.ledger.sessions.list();
  return Promise.resolve(fn(core, session!.id)).finally(() => core.close());
}

describe('insulin story (offline acceptance)', () => {
  it('completes with a cited Chinese answer whose every observed/computed claim cites real evidence', async () => {
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out.endsWith('data: [DONE]\n\n')).toBe(true);
    await withCore((core, sessionId) => {
      const messages = core.ledger.history(sessionId).messages;
      const answer = messages.at(-1)!.parts.find((p) => p.type === 'data-answer') as { data: CitedAnswer } | undefined;
      expect(answer?.data.cited).toBe(true);
      expect(answer!.data.summary).toMatch(/人胰岛素/);
      expect(answer!.data.summary).toMatch(/录制回放/);
      const evidence = core.provenance.evidence;
      for (const claim of answer!.data.claims) {
        for (const id of claim.evidence) expect(evidence.get(sessionId, id), `${claim.statement} cites ${id}`).not.toBeNull();
      }
      expect(answer!.data.claims.map((c) => c.basis)).toEqual(['observed', 'computed', 'observed', 'inferred']);
      // The observed sequence claim cites the UniProt retrieval, whose hash is that of the recorded bytes.
      const uniprot = evidence.get(sessionId, answer!.data.claims[0]!.evidence[0]!)!;
      const fastaBytes = fs.readFileSync(path.resolve('resources/demo/uniprot-P01308.fasta'));
      expect(JSON.stringify(uniprot)).toContain(createHash('sha256').update(fastaBytes).digest('hex'));
    });
  });

  it('saved the FASTA, the structure and the PNG figure as artifacts with provenance', async () => {
    await withCore((core, sessionId) => {
      const service = core.provenance.artifacts;
      const versions = service.list(sessionId).map((a) => a.latest);
      const byPath = (re: RegExp) => versions.find((v) => re.test(v.path))!;
      const fasta = byPath(/^sequences\/P01308\.fasta$/);
      const structure = byPath(/^structures\/4INS\.pdb$/);
      const figure = byPath(/^figures\/.+\.png$/);
      expect(fs.readFileSync(service.blobPath(structure.id))).toEqual(fs.readFileSync(path.resolve('resources/demo/pdb-4INS.pdb')));
      expect(fs.readFileSync(service.blobPath(figure.id)).subarray(1, 4).toString()).toBe('PNG');
      for (const v of [fasta, structure, figure]) {
        expect(v.sha256).toBe(createHash('sha256').update(fs.readFileSync(service.blobPath(v.id))).digest('hex'));
        expect(v.evidenceId).toMatch(/^ev_/);
        expect(v.provenance.producer).toMatchObject({ kind: 'cell', language: 'python', generation: expect.any(String) });
        expect(JSON.stringify(v.provenance)).toMatch(/numpy/);
      }
      // The generation that made them is in the ledger, under the same id, ended when the app closed.
      const generation = (figure.provenance.producer as { generation: string }).generation;
      expect(core.ledger.kernels.listBySession(sessionId)).toEqual([
        expect.objectContaining({ id: generation, language: 'python', generation: 1, endReason: 'app closed', env: { sandbox: { state: 'sandboxed', backend: 'bwrap' } } }),
      ]);
      // The answer lists them.
      const answer = core.ledger.history(sessionId).messages.at(-1)!.parts.find((p) => p.type === 'data-answer') as { data: CitedAnswer };
      expect(answer.data.artifacts).toEqual(expect.arrayContaining([fasta.id, structure.id, figure.id]));
    });
  });

  it('exports a zip with the PNG and a valid notebook that verify accepts, and rejects after one PNG byte changes', async () => {
    const [session] = await withCore((core) => core.ledger.sessions.list());
    // Outside the data root: the CLI never writes into the app’s data folder.
    const zip = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-story-out-')), 'insulin.zip');
    let log = '';
    const io = { out: (t: string) => (log += t), err: (t: string) => (log += t) };
    expect(await runCli(['export', session!.id, '-o', zip], io, env())).toBe(0);
    expect(await runCli(['verify', zip], io, env())).toBe(0);
    const entries = unzipSync(new Uint8Array(fs.readFileSync(zip)));
    const png = Object.keys(entries).find((n) => /^artifacts\/figures\/v1\/.+\.png$/.test(n))!;
    expect(png).toBeTruthy();
    fs.writeFileSync(path.join(dir, 'nb.ipynb'), entries['notebook.ipynb']!);
    execFileSync('/usr/bin/python3', ['-c', 'import sys, nbformat; nbformat.validate(nbformat.read(sys.argv[1], as_version=4))', path.join(dir, 'nb.ipynb')]);
    expect(strFromU8(entries['README.md']!)).toMatch(/\| observed \| `ev_/);
    // One byte of the PNG inside the zip, changed in place (the zip stores it compressed, so re-zip).
    const { zipSync } = await import('fflate');
    entries[png]![200] = entries[png]![200]! ^ 0xff;
    fs.writeFileSync(zip, zipSync(entries));
    let errors = '';
    expect(await runCli(['verify', zip], { out: () => {}, err: (t) => (errors += t) }, env())).toBe(1);
    expect(errors).toContain(png);
  });

  it('openai4s demo replays the story without a key and leaves a real session', async () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-demo-'));
    try {
      let stderr = '';
      let stdout = '';
      const bare = { ...process.env, OPENAI4S_DATA_DIR: fresh, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_ARK_API_KEY: '', OPENAI4S_LLM_API_KEY: '' };
      const status = await runCli(['demo'], { out: (t) => (stdout += `${t}\n`), err: (t) => (stderr += `${t}\n`), write: (t) => (stdout += t) }, bare);
      expect(status).toBe(0);
      expect(stderr).toMatch(/REPLAY of recorded model replies/);
      expect(stdout).toContain('── Answer ──');
      let listed = '';
      await runCli(['sessions', '--json'], { out: (t) => (listed += t), err: () => {} }, bare);
      expect(JSON.parse(listed)).toEqual([expect.objectContaining({ title: '演示回放：人胰岛素 INS（录制数据）' })]);
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  }, 120_000);
});
