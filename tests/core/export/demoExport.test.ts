/**
 * Issue 14, item 6: an export of the demo session (the insulin story replayed offline by
 * `openai4s demo`) unzips, with the system's own unzip, to files that keep their real
 * extensions, so a file manager or Jupyter opens them; `verify` accepts it, and still
 * names the file after one byte of it changed. The notebook and the README link files
 * that exist in the unzipped folder.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCli, exportDemoPackage } from './demoPackage';

let dir: string;
let zipFile: string;
let unzipped: string;

const cli = (args: string[]) => demoCli(dir, args);

/** Every file under `root`, as slash-separated relative paths. */
function tree(root: string, rel = ''): string[] {
  return fs.readdirSync(path.join(root, rel), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tree(root, path.posix.join(rel, e.name)) : [path.posix.join(rel, e.name)]));
}

/** Relative link targets of a Markdown text, decoded. */
const linkTargets = (markdown: string) => [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => decodeURIComponent(m[1]!));

beforeAll(async () => {
  ({ dir, zipFile, unzipped } = await exportDemoPackage('o4s-demo-export-'));
}, 180_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('export of the demo session', () => {
  it('unzips to artifact files with their real extensions and verify accepts it', async () => {
    const files = tree(unzipped);
    const artifacts = files.filter((f) => f.startsWith('artifacts/') && f !== 'artifacts/index.json').sort();
    expect(artifacts).toEqual([
      'artifacts/figures/v1/P01308-amino-acid-composition.pdf',
      'artifacts/figures/v1/P01308-amino-acid-composition.png',
      'artifacts/figures/v1/P01308-amino-acid-composition.svg',
      'artifacts/sequences/v1/P01308.fasta',
      'artifacts/structures/v1/4INS.pdb',
    ]);
    expect(files.filter((f) => f.includes('@'))).toEqual([]);
    // Each file is what its extension says.
    const read = (f: string) => fs.readFileSync(path.join(unzipped, f));
    expect(read(artifacts[0]!).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(read(artifacts[1]!).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(read(artifacts[2]!).toString('utf8')).toMatch(/^<\?xml[\s\S]*<svg /);
    expect(read(artifacts[3]!).toString('utf8')).toMatch(/^>sp\|P01308\|INS_HUMAN/);
    expect(read(artifacts[4]!).toString('utf8')).toMatch(/^ATOM {2}/m);
    // What Jupyter's file server (Python's mimetypes) makes of the names.
    const mimes = execFileSync('/usr/bin/python3', ['-c', 'import sys, mimetypes; print(*[mimetypes.guess_type(p)[0] for p in sys.argv[1:]])', ...artifacts]).toString().trim();
    expect(mimes).toBe('application/pdf image/png image/svg+xml None chemical/x-pdb');
    // The index ties each file to its logical path and version; the extension is the path's.
    const index = JSON.parse(read('artifacts/index.json').toString('utf8')) as { file: string; path: string; number: number; sha256: string }[];
    expect(index.map((r) => r.file).sort()).toEqual(artifacts);
    for (const row of index) {
      expect(row.file).toBe(`artifacts/${path.posix.dirname(row.path)}/v${row.number}/${path.posix.basename(row.path)}`);
      expect(path.extname(row.file)).toBe(path.extname(row.path));
    }
    const verified = await cli(['verify', zipFile]);
    expect(verified).toMatchObject({ code: 0, out: expect.stringMatching(/^ok: \d+ files match/) });
  });

  it('the notebook and the README link files that exist in the unzipped folder', () => {
    const notebook = JSON.parse(fs.readFileSync(path.join(unzipped, 'notebook.ipynb'), 'utf8'));
    const figures = notebook.cells.flatMap((c: { outputs?: { metadata?: Record<string, string>; data?: Record<string, string> }[] }) => c.outputs ?? []).filter((o: { metadata?: Record<string, string> }) => o.metadata?.['openai4s/file']);
    expect(figures.map((o: { metadata: Record<string, string> }) => o.metadata['openai4s/file'])).toEqual(['artifacts/figures/v1/P01308-amino-acid-composition.png']);
    // The inlined figure is the exported file, byte for byte.
    expect(Buffer.from(figures[0].data['image/png'], 'base64')).toEqual(fs.readFileSync(path.join(unzipped, 'artifacts/figures/v1/P01308-amino-acid-composition.png')));
    const notebookLinks = notebook.cells.filter((c: { cell_type: string }) => c.cell_type === 'markdown').flatMap((c: { source: string[] }) => linkTargets(c.source.join('')));
    expect(notebookLinks).toContain('artifacts/figures/v1/P01308-amino-acid-composition.png');
    const readme = fs.readFileSync(path.join(unzipped, 'README.md'), 'utf8');
    const readmeLinks = linkTargets(readme);
    expect(readmeLinks).toEqual(expect.arrayContaining(['artifacts/sequences/v1/P01308.fasta', 'artifacts/structures/v1/4INS.pdb', 'notebook.ipynb', 'manifest.json']));
    for (const target of [...notebookLinks, ...readmeLinks]) expect(fs.existsSync(path.join(unzipped, target)), target).toBe(true);
    // The answer's cited artifacts point at their files.
    expect(readme).toMatch(/- `av_[a-z2-7]{16}`: \[artifacts\/sequences\/v1\/P01308\.fasta\]\(artifacts\/sequences\/v1\/P01308\.fasta\)/);
  });

  it('verify names the file after one byte of it changed', async () => {
    const fasta = 'artifacts/sequences/v1/P01308.fasta';
    const bytes = fs.readFileSync(path.join(unzipped, fasta));
    bytes[10] = bytes[10]! ^ 1;
    fs.writeFileSync(path.join(unzipped, fasta), bytes);
    const tampered = path.join(dir, 'tampered.zip');
    execFileSync('/usr/bin/zip', ['-q', '-r', '-X', tampered, '.'], { cwd: unzipped });
    const bad = await cli(['verify', tampered]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain(`changed: ${fasta}: changed`);
    expect(bad.err).not.toMatch(/P01308-amino-acid-composition\.png: changed/);
  });
});
