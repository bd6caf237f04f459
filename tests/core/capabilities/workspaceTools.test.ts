import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Tool } from '../../../src-main/core/capabilities/define';
import { editFileTool, listDirTool, readTextFileTool, writeFileTool } from '../../../src-main/core/capabilities/tools/fsTools';
import { contentSearchTool, globFilesTool, globToRegExp } from '../../../src-main/core/capabilities/tools/searchTools';
import { WorkspaceEscapeError } from '../../../src-main/core/workspace/safeFs';
import { tempWorkspace, toolCtx } from './toolSupport';

async function run(tool: Tool, args: unknown, workspace: string) {
  const parsed = tool.parse(args);
  if (!parsed.ok) throw new Error(parsed.error);
  return tool.execute(parsed.args, toolCtx(workspace));
}

describe('workspace confinement', () => {
  it('refuses absolute paths, .. segments and symlinks that lead out, for every file tool', async () => {
    const { workspace, outside } = tempWorkspace();
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(workspace, 'link.txt'));
    fs.symlinkSync(outside, path.join(workspace, 'linkdir'));
    const attempts: [Tool, unknown][] = [
      [readTextFileTool, { path: path.join(outside, 'secret.txt') }],
      [readTextFileTool, { path: '../outside/secret.txt' }],
      [readTextFileTool, { path: 'sub/../../outside/secret.txt' }],
      [readTextFileTool, { path: 'link.txt' }],
      [readTextFileTool, { path: 'linkdir/secret.txt' }],
      [readTextFileTool, { path: 'C:\\Windows\\win.ini' }],
      [listDirTool, { path: 'linkdir' }],
      [listDirTool, { path: '..' }],
      [writeFileTool, { path: '../outside/new.txt', content: 'x' }],
      [writeFileTool, { path: '/tmp/evil.txt', content: 'x' }],
      [writeFileTool, { path: 'link.txt', content: 'overwrite' }],
      [writeFileTool, { path: 'linkdir/new.txt', content: 'x' }],
      [editFileTool, { path: 'link.txt', old_text: 'TOP', new_text: 'NOT' }],
      [contentSearchTool, { pattern: 'SECRET', path: 'linkdir' }],
      [globFilesTool, { pattern: '../outside/*' }],
    ];
    for (const [tool, args] of attempts) {
      const error = await run(tool, args, workspace).catch((e: unknown) => e);
      expect(error, `${tool.name} ${JSON.stringify(args)}`).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/Refused (path|pattern)/);
      if (tool !== globFilesTool) expect(error).toBeInstanceOf(WorkspaceEscapeError);
    }
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET');
    expect(fs.existsSync(path.join(outside, 'new.txt'))).toBe(false);
    // A search over the whole workspace does not follow the symlinks out either.
    const all = await run(contentSearchTool, { pattern: 'SECRET' }, workspace);
    expect(all.text).toMatch(/No match/);
  });

  it('write, read a range, edit, list, glob and search inside the workspace', async () => {
    const { workspace } = tempWorkspace();
    await run(writeFileTool, { path: 'data/ins.fasta', content: '>sp|P01308|INS_HUMAN Insulin\nMALWMRLLPLLALLALWGPDPAAA\nFVNQHLCGSHLVEALYLVCGERGFFYTPKT\n' }, workspace);
    expect((await run(readTextFileTool, { path: 'data/ins.fasta', start_line: 2, max_lines: 1 }, workspace)).text).toMatch(/^MALWMRLLPLLALLALWGPDPAAA\n\[2 more lines; continue with start_line=3\]$/);
    await run(editFileTool, { path: 'data/ins.fasta', old_text: 'INS_HUMAN', new_text: 'INS_HUMAN (edited)' }, workspace);
    expect(fs.readFileSync(path.join(workspace, 'data/ins.fasta'), 'utf8')).toContain('INS_HUMAN (edited)');
    await expect(run(editFileTool, { path: 'data/ins.fasta', old_text: 'L', new_text: 'l' }, workspace)).rejects.toThrow(/occurs \d+ times/);
    expect((await run(listDirTool, {}, workspace)).text).toBe('data/');
    expect((await run(globFilesTool, { pattern: '**/*.fasta' }, workspace)).text).toBe('data/ins.fasta');
    expect((await run(contentSearchTool, { pattern: 'gerg', ignore_case: true }, workspace)).text).toBe('data/ins.fasta:3: FVNQHLCGSHLVEALYLVCGERGFFYTPKT');
  });

  it('reads a line range of a file over 4 MB by streaming it, and refuses reading it whole', async () => {
    const { workspace } = tempWorkspace();
    const line = 'ACGT'.repeat(24); // 96 characters
    fs.writeFileSync(path.join(workspace, 'big.txt'), Array.from({ length: 60_000 }, (_, i) => `${i + 1} ${line}`).join('\n'));
    expect(fs.statSync(path.join(workspace, 'big.txt')).size).toBeGreaterThan(4 * 1024 * 1024);
    await expect(run(readTextFileTool, { path: 'big.txt' }, workspace)).rejects.toThrow(/read a range with start_line/);
    const out = await run(readTextFileTool, { path: 'big.txt', start_line: 50_000, max_lines: 3 }, workspace);
    expect(out.text).toBe(`50000 ${line}\n50001 ${line}\n50002 ${line}\n[more lines follow; continue with start_line=50003]`);
    const end = await run(readTextFileTool, { path: 'big.txt', start_line: 59_999, max_lines: 10 }, workspace);
    expect(end.text).toBe(`59999 ${line}\n60000 ${line}`);
  });

  it('globs', () => {
    expect(globToRegExp('**/*.csv').test('a/b/c.csv')).toBe(true);
    expect(globToRegExp('**/*.csv').test('c.csv')).toBe(true);
    expect(globToRegExp('*.csv').test('a/c.csv')).toBe(false);
    expect(globToRegExp('fig/*.{png,svg}').test('fig/x.svg')).toBe(true);
  });
});
