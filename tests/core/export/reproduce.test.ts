/**
 * Issue 25: an export that reproduces itself outside the app. The demo session (the
 * insulin story replayed offline by `openai4s demo`, no key) is exported; its notebook
 * then runs in plain Jupyter (Debian python3-nbclient + python3-ipykernel) with no
 * network: the package's `openai4s_host` answers the cell's host calls from the recorded
 * answers, and the FASTA and the structure the cell saves match the exported versions.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src-main/cli/main';

let dir: string;
let zipFile: string;
let unzipped: string;

const env = () => ({ ...process.env, OPENAI4S_DATA_DIR: path.join(dir, 'data'), OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_ARK_API_KEY: '', OPENAI4S_LLM_API_KEY: '' });

async function cli(args: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`), write: (t) => (out += t) }, env());
  return { code, out, err };
}

/** Runs a command with no network but loopback (a user and network namespace), when this machine allows one. */
function offline(command: string[]): string[] {
  const probe = spawnSync('unshare', ['-rn', 'true']);
  return probe.status === 0 ? ['unshare', '-rn', 'sh', '-c', 'ip link set lo up 2>/dev/null; exec "$@"', 'sh', ...command] : command;
}

interface NotebookRun {
  ok: boolean;
  error?: string;
  cells: { setup: boolean; stdout: string; errors: string[] }[];
}

function runNotebook(folder: string): NotebookRun {
  const [bin, ...args] = offline(['/usr/bin/python3', path.join(__dirname, 'runNotebook.py'), path.join(folder, 'notebook.ipynb')]);
  const run = spawnSync(bin!, args, { encoding: 'utf8', env: { ...process.env, PYDEVD_DISABLE_FILE_VALIDATION: '1' }, timeout: 240_000 });
  const line = run.stdout.trim().split('\n').find((l) => l.startsWith('{'));
  if (!line) throw new Error(`the notebook runner printed no result (status ${run.status}):\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(line) as NotebookRun;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-reproduce-'));
  const demo = await cli(['demo']);
  expect(demo.code, demo.err).toBe(0);
  const [session] = JSON.parse((await cli(['sessions', '--json'])).out);
  zipFile = path.join(dir, 'story.zip');
  const exported = await cli(['export', session.id, '-o', zipFile]);
  expect(exported.err).toBe('');
  unzipped = path.join(dir, 'unzipped');
  execFileSync('/usr/bin/unzip', ['-q', zipFile, '-d', unzipped]);
}, 180_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the exported notebook outside the app', () => {
  it('carries the recorded host, its answers and the workspace inputs', () => {
    const calls = fs.readFileSync(path.join(unzipped, 'reproduce/host_calls.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(calls.map((c) => [c.method, c.arguments])).toEqual([
      ['science_search', { database: 'uniprot', operation: 'fasta', query: 'P01308' }],
      ['save_artifact', { path: 'sequences/P01308.fasta' }],
      ['save_artifact', { path: 'structures/4INS.pdb' }],
    ]);
    expect(calls[0].output.records[0].attributes.sequence).toMatch(/^MALWMRLLPLL/);
    // The structure the tool call downloaded is an input of the cell; its bytes are the exported version's.
    const inputs = JSON.parse(fs.readFileSync(path.join(unzipped, 'reproduce/inputs.json'), 'utf8'));
    expect(inputs).toEqual([expect.objectContaining({ path: 'structures/4INS.pdb', origin: 'science_search pdb download 4INS', file: 'artifacts/structures/v1/4INS.pdb' })]);
    const notebook = JSON.parse(fs.readFileSync(path.join(unzipped, 'notebook.ipynb'), 'utf8'));
    const firstCode = notebook.cells.find((c: { cell_type: string }) => c.cell_type === 'code');
    expect(firstCode.source.join('')).toContain('import openai4s_host');
  });

  it('runs in plain Jupyter (nbclient), offline, with no error, and the saved files match the export byte for byte', () => {
    const run = runNotebook(unzipped);
    expect(run.error ?? '').toBe('');
    expect(run.ok).toBe(true);
    expect(run.cells.flatMap((c) => c.errors)).toEqual([]);
    expect(run.cells[0]).toMatchObject({ setup: true, stdout: expect.stringMatching(/3 recorded host answers, 3 artifact versions; 1 input file\(s\) staged/) });
    const cell = run.cells[1]!.stdout;
    expect(cell).toContain('sequences/P01308.fasta matches recorded version v1 byte for byte');
    expect(cell).toContain('structures/4INS.pdb matches recorded version v1 byte for byte');
    // The computed numbers are the session's: the same RESULT line the app recorded.
    const recorded = JSON.parse(fs.readFileSync(path.join(unzipped, 'notebook.ipynb'), 'utf8'))
      .cells.filter((c: { cell_type: string; metadata: { openai4s?: { setup?: boolean } } }) => c.cell_type === 'code' && !c.metadata.openai4s?.setup)[0]
      .outputs.filter((o: { output_type: string; name?: string }) => o.output_type === 'stream' && o.name === 'stdout')
      .map((o: { text: string[] }) => o.text.join(''))
      .join('');
    const resultLine = (text: string) => /^RESULT .*$/m.exec(text)?.[0];
    expect(resultLine(cell)).toBeTruthy();
    expect(resultLine(cell)).toBe(resultLine(recorded));
    // The cell ran in the package's workspace folder, the FASTA written there is the exported version.
    expect(fs.readFileSync(path.join(unzipped, 'workspace/sequences/P01308.fasta'))).toEqual(fs.readFileSync(path.join(unzipped, 'artifacts/sequences/v1/P01308.fasta')));
  }, 240_000);

  it('names a request the session never made instead of inventing an answer', () => {
    const script = [
      'import sys',
      `sys.path.insert(0, ${JSON.stringify(path.join(unzipped, 'reproduce'))})`,
      'import openai4s_host',
      `host = openai4s_host.Host(${JSON.stringify(unzipped)}, chdir=False, verbose=False)`,
      'try:',
      '    host.science.search(database="uniprot", operation="fasta", query="P69905")',
      'except openai4s_host.HostError as e:',
      '    print(e)',
      'print(host.science.search(database="uniprot", operation="fasta", query="P01308")["output"]["records"][0]["id"])',
      'host.submit_output(summary="done")',
    ].join('\n');
    const out = execFileSync('/usr/bin/python3', ['-c', script], { encoding: 'utf8' });
    expect(out).toContain('science.search({"database":"uniprot","operation":"fasta","query":"P69905"}): no recorded answer');
    expect(out).toContain('P01308\n');
  });
});
