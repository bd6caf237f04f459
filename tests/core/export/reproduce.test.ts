/**
 * Issue 25: an export that reproduces itself outside the app. The demo session (the
 * insulin story replayed offline by `openai4s demo`, no key) is exported; its notebook
 * then runs in plain Jupyter (Debian python3-nbclient + python3-ipykernel) with no
 * network: the package's `openai4s_host` answers the cell's host calls from the recorded
 * answers, and the FASTA and the structure the cell saves match the exported versions.
 * `openai4s reproduce` runs the same cells in a fresh sandboxed kernel of the app and
 * reports per artifact; an edited recorded answer or figure is named, and an edited package
 * runs with verify's findings in its report.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import zlib from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePng } from '../../../src-main/core/export/reproduce/pngCompare';
import type { ReproduceReport } from '../../../src-main/core/export/reproduce/reproduce';
import { forgeManifest } from '../../security/support/exportPackages';
import { demoCli, exportDemoPackage } from './demoPackage';

let dir: string;
let zipFile: string;
let unzipped: string;

const cli = (args: string[]) => demoCli(dir, args);

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
  ({ dir, zipFile, unzipped } = await exportDemoPackage('o4s-reproduce-'));
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
    expect(run.cells[0]).toMatchObject({ setup: true, stdout: expect.stringMatching(/3 recorded host answers, 5 artifact versions; 1 input file\(s\) staged/) });
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

  it('reads artifact versions by number from the package, names a version it lacks, and submit_output only prints', () => {
    const script = [
      'import sys',
      `sys.path.insert(0, ${JSON.stringify(path.join(unzipped, 'reproduce'))})`,
      'import openai4s_host',
      `host = openai4s_host.Host(${JSON.stringify(unzipped)}, chdir=False, verbose=True)`,
      'print(host.read_artifact("sequences/P01308.fasta", 1).decode().splitlines()[0])',
      'print(host.artifact_path("structures/4INS.pdb"))',
      'try:',
      '    host.read_artifact("sequences/P01308.fasta", 2)',
      'except openai4s_host.HostError as e:',
      '    print(e)',
      'print(host.submit_output(summary="insulin: 110 residues")["output"])',
    ].join('\n');
    const out = execFileSync('/usr/bin/python3', ['-c', script], { encoding: 'utf8' });
    expect(out).toMatch(/^>sp\|P01308\|INS_HUMAN/m);
    expect(out).toContain(`${path.join(unzipped, 'artifacts/structures/v1/4INS.pdb')}\n`);
    expect(out).toMatch(/artifact sequences\/P01308\.fasta v2 is not in this package \(it has .*sequences\/P01308\.fasta/);
    expect(out).toContain('openai4s_host: submit_output (no-op outside OpenAI4S): insulin: 110 residues\nNone\n');
  });
});

describe('the environment lock of each kernel generation in the export', () => {
  type Lock = { language: string; environment: string; interpreterVersion: string; imported: { module: string; distribution: string | null; version: string | null }[]; requirements: string[] };
  const generations = () => JSON.parse(fs.readFileSync(path.join(unzipped, 'ledger/kernel_generations.json'), 'utf8')) as { id: string; environmentLock: Lock | null }[];

  it('names the environment, the interpreter and the version of each package the demo cell imported', () => {
    const locks = generations().flatMap((g) => (g.environmentLock ? [g.environmentLock] : []));
    expect(locks).toHaveLength(1);
    const [lock] = locks;
    expect(lock).toMatchObject({ language: 'python', environment: 'python-default', interpreterVersion: expect.stringMatching(/^3\.\d+/) });
    const matplotlib = lock!.imported.find((p) => p.module === 'matplotlib');
    expect(matplotlib).toMatchObject({ distribution: 'matplotlib', version: expect.stringMatching(/^\d+\.\d+/) });
    expect(lock!.requirements).toContain(`matplotlib==${matplotlib!.version}`);
  });

  it("the notebook's setup says which installed package differs from the lock, with the pip command that matches it", () => {
    const copy = path.join(dir, 'lock-edited');
    // The package folder only: an earlier test ran a kernel in it, whose IPC socket cannot be copied.
    fs.cpSync(unzipped, copy, { recursive: true, filter: (source) => !fs.lstatSync(source).isSocket() });
    const file = path.join(copy, 'ledger/kernel_generations.json');
    const edited = generations();
    const lock = edited.find((g) => g.environmentLock)!.environmentLock!;
    lock.imported = lock.imported.map((p) => (p.module === 'matplotlib' ? { ...p, version: '0.0.1' } : p));
    fs.writeFileSync(file, JSON.stringify(edited));
    const setup = (folder: string) =>
      execFileSync('/usr/bin/python3', ['-c', [`import sys`, `sys.path.insert(0, ${JSON.stringify(path.join(folder, 'reproduce'))})`, 'import openai4s_host', `openai4s_host.Host(${JSON.stringify(folder)}, chdir=False, verbose=True)`].join('\n')], { encoding: 'utf8' });
    expect(setup(unzipped)).not.toContain('the session used');
    expect(setup(copy)).toMatch(/^openai4s_host: matplotlib \S+ is installed, the session used 0\.0\.1 \(pip install matplotlib==0\.0\.1 to match\)$/m);
  });
});

/** A PNG of RGBA pixels (8-bit, filter 0 rows): enough to write a changed figure back. */
function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(type, 'latin1'), body])) >>> 0);
    return Buffer.concat([head, Buffer.from(type, 'latin1'), body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** Every file under `folder` as [zip name, bytes]. */
function folderFiles(folder: string, prefix = ''): [string, Uint8Array][] {
  return fs.readdirSync(path.join(folder, prefix), { withFileTypes: true }).flatMap((d) => {
    const name = prefix ? `${prefix}/${d.name}` : d.name;
    return d.isDirectory() ? folderFiles(folder, name) : [[name, new Uint8Array(fs.readFileSync(path.join(folder, name)))] as [string, Uint8Array]];
  });
}

/**
 * A copy of the package with `edit` applied to its unzipped files, re-zipped. By default the
 * manifest is left as exported, so the package fails verify (and still runs: that is how one
 * sees what an edit changes); `rehash: true` re-hashes it over the edited files, unsigned, as
 * whoever edits a package and stands by it would.
 */
function editedPackage(name: string, edit: (folder: string) => void, options: { rehash?: boolean } = {}): string {
  const folder = path.join(dir, `${name}-unzipped`);
  execFileSync('/usr/bin/unzip', ['-q', zipFile, '-d', folder]);
  edit(folder);
  if (options.rehash) {
    const original = JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8'));
    fs.writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify(forgeManifest(original, folderFiles(folder), {}, 'drop'), null, 2));
  }
  const out = path.join(dir, `${name}.zip`);
  execFileSync('/usr/bin/zip', ['-q', '-r', '-X', out, '.'], { cwd: folder });
  return out;
}

async function reproduce(file: string, extra: string[] = []): Promise<{ code: number; report: ReproduceReport; err: string }> {
  const run = await cli(['reproduce', file, '--json', ...extra]);
  return { code: run.code, report: JSON.parse(run.out) as ReproduceReport, err: run.err };
}

const FIGURE = 'figures/P01308-amino-acid-composition.png';

describe('openai4s reproduce', () => {
  it('reruns the demo export in a fresh sandboxed kernel: the FASTA, the structure, the printed numbers and the figure match', async () => {
    const { code, report } = await reproduce(zipFile);
    expect(report.refused).toBeNull();
    expect(report.verified).toBe(true);
    expect(report.inputs).toEqual([{ path: 'structures/4INS.pdb', staged: true }]);
    expect(report.cells).toEqual([expect.objectContaining({ index: 1, language: 'python', recordedStatus: 'ok', status: 'ok', stdout: 'match', sandbox: 'sandboxed' })]);
    const byPath = Object.fromEntries(report.artifacts.map((a) => [a.path, a]));
    expect(byPath['sequences/P01308.fasta']).toMatchObject({ outcome: 'match', version: 1 });
    expect(byPath['structures/4INS.pdb']).toMatchObject({ outcome: 'match', version: 1 });
    expect(byPath['sequences/P01308.fasta']!.sha256).toBe(byPath['sequences/P01308.fasta']!.recordedSha256);
    // The figure: byte-identical with the same matplotlib, else within the pixel tolerance with the numbers said.
    const figure = byPath[FIGURE]!;
    expect(['match', 'within_tolerance']).toContain(figure.outcome);
    if (figure.outcome === 'within_tolerance') expect(figure.reason).toMatch(/pixels differ/);
    expect(report.unanswered).toEqual([]);
    expect(report.ok).toBe(true);
    expect(code).toBe(0);
    // The human form says the same in one line per artifact.
    const text = await cli(['reproduce', zipFile]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^match +sequences\/P01308\.fasta v1/m);
    expect(text.out).toMatch(/^reproduced: 5 of 5 artifact versions match, 1 cells run/m);
    // The figure's SVG (no date, fixed ids) and PDF (no date) are recomputed byte for byte.
    expect(byPath['figures/P01308-amino-acid-composition.svg']).toMatchObject({ outcome: 'match' });
    expect(byPath['figures/P01308-amino-acid-composition.pdf']).toMatchObject({ outcome: 'match' });
  }, 240_000);

  it('one edited recorded answer: the FASTA and the figure no longer match, the structure still does, and the edit is named', async () => {
    const edited = editedPackage('edited-answer', (folder) => {
      const file = path.join(folder, 'reproduce/host_calls.jsonl');
      const calls = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      // The UniProt answer the cell got: its sequence with one residue changed (A chain N21 -> D).
      const record = calls[0].output.records[0];
      record.attributes.sequence = `${record.attributes.sequence.slice(0, -1)}D`;
      fs.writeFileSync(file, calls.map((c) => JSON.stringify(c)).join('\n') + '\n');
    });
    const { code, report } = await reproduce(edited);
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.verified).toBe(false);
    expect(report.problems.join('\n')).toContain('reproduce/host_calls.jsonl: changed');
    const byPath = Object.fromEntries(report.artifacts.map((a) => [a.path, a]));
    expect(byPath['structures/4INS.pdb']!.outcome).toBe('match');
    expect(byPath['sequences/P01308.fasta']).toMatchObject({ outcome: 'differs', diff: { kind: 'text', lines: ['@@ line 3 @@', expect.stringMatching(/^-\w+LENYCN$/), expect.stringMatching(/^\+\w+LENYCD$/)] } });
    expect(byPath[FIGURE]).toMatchObject({ outcome: 'differs', pixels: expect.objectContaining({ differingPixels: expect.any(Number) }) });
    expect(byPath[FIGURE]!.pixels!.differingPixels).toBeGreaterThan(0);
    // The printed numbers changed too (one more aspartate, one fewer asparagine).
    expect(report.cells[0]).toMatchObject({ status: 'ok', stdout: 'differs' });
    const text = await cli(['reproduce', edited]);
    expect(text.err).toMatch(/^DIFFERS +sequences\/P01308\.fasta v1: the recomputed text differs/m);
    expect(text.err).toMatch(/NOT reproduced: 1 of 5 artifact versions match/);
    expect(byPath['figures/P01308-amino-acid-composition.svg']).toMatchObject({ outcome: 'differs', diff: { kind: 'text' } });
    expect(byPath['figures/P01308-amino-acid-composition.pdf']).toMatchObject({ outcome: 'differs' });
  }, 240_000);

  it('a recorded request the cell no longer makes: its cell fails, and every artifact it made says why it was not recomputed', async () => {
    const edited = editedPackage('edited-request', (folder) => {
      const file = path.join(folder, 'reproduce/host_calls.jsonl');
      const calls = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      calls[0].arguments.query = 'P69905'; // recorded as another protein's request
      fs.writeFileSync(file, calls.map((c) => JSON.stringify(c)).join('\n') + '\n');
    });
    const { code, report } = await reproduce(edited);
    expect(code).toBe(1);
    expect(report.cells[0]).toMatchObject({ recordedStatus: 'ok', status: 'error', error: expect.stringContaining('no recorded answer') });
    expect(report.unanswered).toEqual([expect.objectContaining({ arguments: { database: 'uniprot', operation: 'fasta', query: 'P01308' } })]);
    const byPath = Object.fromEntries(report.artifacts.map((a) => [a.path, a]));
    for (const saved of ['sequences/P01308.fasta', 'structures/4INS.pdb']) {
      expect(byPath[saved]).toMatchObject({ outcome: 'not_recomputed', sha256: null, reason: `no replayed cell called host.save_artifact(path="${saved}") (see the cells' outcomes)` });
    }
    expect(byPath[FIGURE]).toMatchObject({ outcome: 'not_recomputed', reason: expect.stringMatching(/^cell 1 ended error \(HostError: .*no recorded answer.*\) and drew 0 figure\(s\); the session's cell drew 1$/) });
    const text = await cli(['reproduce', edited]);
    expect(text.err).toMatch(/^not recomputed +sequences\/P01308\.fasta v1: no replayed cell called host\.save_artifact/m);
    expect(text.err).toMatch(/^unanswered: .*P01308.*the session never made this request$/m);
    expect(text.err).toMatch(/NOT reproduced: 0 of 5 artifact versions match/);
  }, 240_000);

  it('a recorded figure a few pixels off is within the tolerance, and the report says how many pixels', async () => {
    const edited = editedPackage('edited-figure', (folder) => {
      const file = path.join(folder, 'artifacts/figures/v1/P01308-amino-acid-composition.png');
      const png = decodePng(fs.readFileSync(file));
      for (let i = 0; i < 5; i++) png.rgba.set([255, 0, 0, 255], (i * 37 + 11) * 4);
      fs.writeFileSync(file, encodePng(png.width, png.height, png.rgba));
    });
    const { report } = await reproduce(edited);
    const figure = report.artifacts.find((a) => a.path === FIGURE)!;
    expect(figure.outcome).toBe('within_tolerance');
    expect(figure.pixels).toMatchObject({ differingPixels: 5 });
    expect(figure.reason).toMatch(/^not byte-identical, but 5 of \d+ pixels differ/);
    // With no tolerance the same figure differs, with the box of the changed pixels.
    const strict = await reproduce(edited, ['--pixel-tolerance', '0']);
    expect(strict.report.artifacts.find((a) => a.path === FIGURE)).toMatchObject({ outcome: 'differs', pixels: { differingPixels: 5, box: expect.objectContaining({ y: 0 }) } });
  }, 240_000);

  it('a recorded input whose path leaves the workspace is not staged, and says why', async () => {
    const edited = editedPackage('escaping-input', (folder) => {
      const file = path.join(folder, 'reproduce/inputs.json');
      const inputs = JSON.parse(fs.readFileSync(file, 'utf8'));
      inputs[0].path = '../escaped.pdb';
      fs.writeFileSync(file, JSON.stringify(inputs));
    });
    const { report } = await reproduce(edited);
    expect(report.refused).toBeNull();
    expect(report.inputs).toEqual([{ path: '../escaped.pdb', staged: false, reason: expect.stringMatching(/escaped\.pdb/) }]);
    expect(fs.existsSync(path.join(os.tmpdir(), 'escaped.pdb'))).toBe(false);
  }, 240_000);

  it('refuses a package whose recorded answers are not what an export writes, naming the file', async () => {
    const edited = editedPackage('malformed-answers', (folder) => fs.writeFileSync(path.join(folder, 'reproduce/host_calls.jsonl'), '{"method":"science_search","status":"ok"}\n'));
    const { code, report } = await reproduce(edited);
    expect(code).toBe(1);
    expect(report.refused).toMatch(/^reproduce\/host_calls\.jsonl is not what an export writes \(0\.arguments: /);
    expect(report.cells).toEqual([]);
  });

  it('runs an edited notebook (its manifest not re-hashed) and says the package does not verify; re-hashed, it verifies unsigned', async () => {
    const edit = (folder: string) => {
      const file = path.join(folder, 'notebook.ipynb');
      const notebook = JSON.parse(fs.readFileSync(file, 'utf8'));
      const cell = notebook.cells.find((c: { cell_type: string; metadata: { openai4s?: { setup?: boolean } } }) => c.cell_type === 'code' && !c.metadata.openai4s?.setup);
      cell.source = ['print("EDITED CELL RAN")\n', ...cell.source];
      fs.writeFileSync(file, JSON.stringify(notebook));
    };
    const stale = await reproduce(editedPackage('edited-notebook', edit));
    expect(stale.code).toBe(1);
    expect(stale.report).toMatchObject({ ok: false, verified: false, refused: null });
    expect(stale.report.problems.join('\n')).toContain('notebook.ipynb: changed');
    // The edited cell ran: what it printed differs from what the session's cell printed.
    expect(stale.report.cells.flatMap((c) => c.stdoutDiff ?? []).join('\n')).toContain('EDITED CELL RAN');
    const rehashed = await reproduce(editedPackage('edited-notebook-rehashed', edit, { rehash: true }));
    expect(rehashed.report).toMatchObject({ refused: null, verified: true, problems: [], signature: expect.objectContaining({ status: 'unsigned' }) });
  });

  it('refuses a malformed artifacts/index.json instead of comparing nothing and reporting success', async () => {
    const edited = editedPackage('malformed-index', (folder) => fs.writeFileSync(path.join(folder, 'artifacts/index.json'), '[{"file":null}]'));
    const { code, report } = await reproduce(edited);
    expect(code).toBe(1);
    expect(report.refused).toMatch(/^artifacts\/index\.json is not what an export writes \(0\.file: /);
    expect(report.cells).toEqual([]);
  });

  it('names the notebook when it is the file missing', async () => {
    const gone = editedPackage('no-notebook', (folder) => fs.rmSync(path.join(folder, 'notebook.ipynb')));
    const { report } = await reproduce(gone);
    expect(report.refused).toBe(`${gone} has no notebook.ipynb, the cells reproduce runs; export the session again`);
    expect(report.problems.join('\n')).toContain('notebook.ipynb: missing');
  });

  it('refuses a package without recorded answers, naming the fix', async () => {
    const old = editedPackage('no-answers', (folder) => fs.rmSync(path.join(folder, 'reproduce'), { recursive: true }));
    const run = await cli(['reproduce', old]);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/has no recorded host answers \(reproduce\/host_calls\.jsonl\).*export the session again/);
  });
});
