import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src-main/cli/main';
import { startScriptedModel, type ScriptedModel } from '../../support/scriptedModel';
import { validAnswer } from '../../support/mockModel';

let dir: string;
let server: ScriptedModel;
let sessionId: string;
let zipFile: string;

const env = () => ({
  ...process.env,
  OPENAI4S_DATA_DIR: dir,
  OPENAI4S_PROVIDER: 'openai',
  OPENAI4S_OPENAI_BASE_URL: server.baseUrl,
  OPENAI4S_OPENAI_API_KEY: 'k',
  OPENAI4S_KERNEL_PREWARM: '0',
});

async function cli(args: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`), write: (t) => (out += t) }, env());
  return { code, out, err };
}

const CELL = [
  'import matplotlib',
  'matplotlib.use("Agg")',
  'import matplotlib.pyplot as plt',
  'seq = "MALWMRLLPLLALLALWGPDPAAAFVNQHLCGSHLVEALYLVCGERGFFYTPKTRREAEDLQVGQVELGGGPGAGSLQPLALEGSLQKRGIVEQCCTSICSLYQLENYCN"',
  'print("length", len(seq))',
  'counts = {a: seq.count(a) for a in sorted(set(seq))}',
  'plt.bar(list(counts), list(counts.values()))',
  'plt.title("INS composition")',
].join('\n');

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-export-'));
  server = await startScriptedModel([
    { reply: [{ text: `Computing.\n\n\`\`\`python\n${CELL}\n\`\`\`\n` }] },
    { reply: [{ toolCall: { name: 'finalize_response', arguments: validAnswer } }] },
  ]);
  const run = await cli(['run', '人胰岛素的组成', '--provider', 'openai']);
  expect(run.err).not.toMatch(/failed/);
  expect(run.code).toBe(0);
  sessionId = JSON.parse((await cli(['sessions', '--json'])).out)[0].id;
  // Outside the data root: the CLI never writes into the app’s data folder.
  fs.mkdirSync(`${dir}-out`);
  zipFile = path.join(`${dir}-out`, 'session.zip');
}, 120_000);

afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(`${dir}-out`, { recursive: true, force: true });
});

describe('session export and verify', () => {
  it('writes a zip with the ledger extract, a valid notebook with the figure, a report and a manifest', async () => {
    const exported = await cli(['export', sessionId, '-o', zipFile]);
    expect(exported.err).toBe('');
    expect(exported.code).toBe(0);
    const entries = unzipSync(new Uint8Array(fs.readFileSync(zipFile)));
    const names = Object.keys(entries).sort();
    // The figure keeps its extension and is named after its axes title; the version is a folder.
    const png = 'artifacts/figures/v1/INS-composition.png';
    expect(names).toEqual(
      [
        'README.md',
        'artifacts/index.json',
        png,
        // Its vector forms, saved beside the PNG (issue 25).
        'artifacts/figures/v1/INS-composition.svg',
        'artifacts/figures/v1/INS-composition.pdf',
        'evidence/evidence.jsonl',
        'ledger/action_events.jsonl',
        'ledger/kernel_generations.json',
        'ledger/run_tree.json',
        'ledger/runs.json',
        // Every biosecurity screening and cell review of the session (issue 27).
        'ledger/safety_checks.jsonl',
        'ledger/stream_events.jsonl',
        'manifest.json',
        'notebook.ipynb',
        'reproduce/host_calls.jsonl',
        'reproduce/inputs.json',
        'reproduce/openai4s_host.py',
        'session.json',
      ].sort(),
    );
    // The figure the cell left is an artifact version with the cell as producer, its bytes hashed.
    expect(Buffer.from(entries[png]!).subarray(1, 4).toString()).toBe('PNG');
    const [version] = JSON.parse(strFromU8(entries['artifacts/index.json']!));
    expect(version).toMatchObject({ file: png, number: 1, sha256: createHash('sha256').update(entries[png]!).digest('hex'), provenance: { producer: { kind: 'cell', language: 'python' } } });
    const evidence = strFromU8(entries['evidence/evidence.jsonl']!).trim().split('\n').map((l) => JSON.parse(l));
    expect(evidence.map((e) => e.kind).sort()).toEqual(['artifact_version', 'artifact_version', 'artifact_version', 'cell']);
    expect(evidence.map((e) => e.id)).toContain(version.evidenceId);
    const manifest = JSON.parse(strFromU8(entries['manifest.json']!));
    expect(manifest.files).toHaveLength(Object.keys(entries).length - 1);
    expect(manifest.session.id).toBe(sessionId);

    const notebook = JSON.parse(strFromU8(entries['notebook.ipynb']!));
    const cells = notebook.cells.filter((c: { cell_type: string }) => c.cell_type === 'code');
    // The first code cell installs the package's recorded host; then the session's cell.
    expect(cells[0].metadata.openai4s).toEqual({ setup: true });
    expect(cells[0].source.join('')).toContain('host = openai4s_host.Host(openai4s_package)');
    const code = cells.slice(1);
    expect(code).toHaveLength(1);
    expect(code[0].source.join('')).toBe(CELL);
    expect(code[0].outputs.find((o: { output_type: string }) => o.output_type === 'stream').text.join('')).toMatch(/length 110/);
    const figure = code[0].outputs.find((o: { output_type: string; data?: Record<string, string> }) => o.output_type === 'display_data' && o.data?.['image/png']);
    expect(Buffer.from(figure.data['image/png'], 'base64')).toEqual(Buffer.from(entries[png]!));
    expect(figure.metadata).toEqual({
      'openai4s/path': 'figures/INS-composition.png',
      'openai4s/file': png,
      'openai4s/svgFile': 'artifacts/figures/v1/INS-composition.svg',
      'openai4s/pdfFile': 'artifacts/figures/v1/INS-composition.pdf',
    });
    const links = notebook.cells.find((c: { source: string[] }) => c.source.join('').startsWith('Figures of this cell'));
    expect(links.source.join('')).toContain(`[artifacts/figures/v1/INS-composition.png](${png})`);
    expect(links.source.join('')).toContain('[artifacts/figures/v1/INS-composition.pdf](artifacts/figures/v1/INS-composition.pdf)');
    // Debian's nbformat validates the notebook.
    const nbPath = path.join(dir, 'nb.ipynb');
    fs.writeFileSync(nbPath, entries['notebook.ipynb']!);
    execFileSync('/usr/bin/python3', ['-c', 'import sys, nbformat; nbformat.validate(nbformat.read(sys.argv[1], as_version=4))', nbPath]);

    const streamEvents = strFromU8(entries['ledger/stream_events.jsonl']!).trim().split('\n').map((l) => JSON.parse(l));
    expect(streamEvents[0]).toMatchObject({ seq: 1, chunk: { type: 'user-message', text: '人胰岛素的组成' } });
    const actions = strFromU8(entries['ledger/action_events.jsonl']!).trim().split('\n').map((l) => JSON.parse(l));
    expect(actions.map((a) => a.kind)).toEqual(['cell']);
    const readme = strFromU8(entries['README.md']!);
    expect(readme).toContain('人胰岛素的组成');
    expect(readme).toContain(validAnswer.summary);
    expect(readme).toMatch(/\| 1 \| Insulin is a peptide hormone\. \| inferred \|/);
    expect(readme).toContain(`- [artifacts/figures/v1/INS-composition.png](${png})`);
  });

  it('verifies an untouched export and names the file after one byte changed', async () => {
    expect(await cli(['verify', zipFile])).toMatchObject({ code: 0, out: expect.stringMatching(/^ok: 17 files match/) });
    const entries = unzipSync(new Uint8Array(fs.readFileSync(zipFile)));
    // One byte of the PNG figure changed.
    const png = Object.keys(entries).find((n) => n.endsWith('.png'))!;
    const figure = entries[png]!;
    figure[100] = figure[100]! ^ 1;
    const tampered = path.join(dir, 'tampered.zip');
    fs.writeFileSync(tampered, zipSync(entries));
    const bad = await cli(['verify', tampered]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain(`changed: ${png}: changed`);
    // Covering the change by rewriting its hash in the manifest is caught by the manifest's digest.
    const manifest = JSON.parse(strFromU8(entries['manifest.json']!));
    manifest.files.find((f: { path: string }) => f.path === png).sha256 = createHash('sha256').update(figure).digest('hex');
    entries['manifest.json'] = new TextEncoder().encode(JSON.stringify(manifest));
    fs.writeFileSync(tampered, zipSync(entries));
    expect((await cli(['verify', tampered])).err).toMatch(/manifest\.json: its digest does not match/);
    // A manifest whose file list is malformed is reported, not a crash.
    entries['manifest.json'] = new TextEncoder().encode(JSON.stringify({ ...manifest, files: [42, null] }));
    fs.writeFileSync(tampered, zipSync(entries));
    expect((await cli(['verify', tampered])).err).toMatch(/manifest\.json: its file list is missing or malformed/);
    // Not a zip at all.
    fs.writeFileSync(tampered, 'nope');
    expect((await cli(['verify', tampered])).err).toMatch(/not a readable zip/);
  });

  it('refuses an unknown session with the way to list them', async () => {
    const r = await cli(['export', 'nope', '-o', path.join(`${dir}-out`, 'x.zip')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/No session "nope".*openai4s sessions/);
  });
});
