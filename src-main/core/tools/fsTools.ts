import fs from 'node:fs';
import readline from 'node:readline';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, reasonField, type Tool } from './define';
import { resolveExisting, resolveForWrite, writeNoFollow } from './workspace';

/**
 * Workspace file tools. Writes inside the session workspace are allowed by default: the
 * workspace is the agent's own scratch space, which its sandboxed cells can already write.
 */

const relPath = z.string().min(1).max(1024).describe('Path relative to the session workspace, e.g. "data/insulin.fasta".');
const MAX_READ_BYTES = 4 * 1024 * 1024;

export const listDirTool = defineTool({
  name: 'list_dir',
  description: 'List a folder of the session workspace (names, kinds, sizes). Use "." for the workspace itself.',
  input: z.object({ path: relPath.default('.') }).strict(),
  sideEffect: 'read',
  defaultPolicy: 'allow',
  resourceKeys: (a) => [`file:${a.path}`],
  target: (a) => a.path,
  async execute(a, ctx) {
    const { abs, rel } = resolveExisting(ctx.workspace, a.path);
    if (!fs.statSync(abs).isDirectory()) throw new Error(`"${rel}" is a file, not a folder; read it with read_text_file.`);
    const entries = fs.readdirSync(abs, { withFileTypes: true }).sort((x, y) => x.name.localeCompare(y.name));
    const rows = entries.map((e) => {
      const kind = e.isDirectory() ? 'dir' : e.isSymbolicLink() ? 'link' : 'file';
      const size = kind === 'file' ? fs.lstatSync(path.join(abs, e.name)).size : null;
      return { name: e.name, kind, size };
    });
    const text = rows.length
      ? rows.map((r) => `${r.kind === 'dir' ? `${r.name}/` : r.name}${r.size === null ? '' : `  (${r.size} bytes)`}`).join('\n')
      : `(the folder "${rel}" is empty)`;
    return { text, output: { path: rel, entries: rows } };
  },
});

export const readTextFileTool = defineTool({
  name: 'read_text_file',
  description: 'Read a UTF-8 text file of the session workspace, optionally a range of lines (1-based).',
  input: z
    .object({
      path: relPath,
      start_line: z.number().int().min(1).optional(),
      max_lines: z.number().int().min(1).max(20_000).optional(),
    })
    .strict(),
  sideEffect: 'read',
  defaultPolicy: 'allow',
  hostMethods: ['read_file'],
  resourceKeys: (a) => [`file:${a.path}`],
  target: (a) => a.path,
  async execute(a, ctx) {
    const { abs, rel } = resolveExisting(ctx.workspace, a.path);
    const st = fs.statSync(abs);
    if (st.isDirectory()) throw new Error(`"${rel}" is a folder; list it with list_dir.`);
    if (st.size > MAX_READ_BYTES && !a.start_line) {
      throw new Error(`"${rel}" is ${st.size} bytes; read a range with start_line and max_lines, or summarise it in a cell.`);
    }
    if (st.size > MAX_READ_BYTES) return readLargeRange(abs, rel, st.size, a.start_line!, a.max_lines ?? 2_000);
    const bytes = fs.readFileSync(abs);
    if (bytes.subarray(0, 8192).includes(0)) throw new Error(`"${rel}" is a binary file; open it in a cell (e.g. with pandas or Biopython).`);
    const all = bytes.toString('utf8').split('\n');
    const start = (a.start_line ?? 1) - 1;
    const lines = all.slice(start, a.max_lines ? start + a.max_lines : undefined);
    const more = all.length - start - lines.length;
    const tail = more > 0 ? `\n[${more} more lines; continue with start_line=${start + lines.length + 1}]` : '';
    return { text: lines.join('\n') + tail, output: { path: rel, bytes: st.size, lines: all.length, startLine: start + 1 } };
  },
});

/**
 * A range of lines of a file too large to hold whole: streamed, stopping after the
 * range, so memory stays bounded by the range, not the file.
 */
async function readLargeRange(abs: string, rel: string, size: number, startLine: number, maxLines: number) {
  const head = Buffer.alloc(8192);
  const fd = fs.openSync(abs, 'r');
  try {
    const n = fs.readSync(fd, head, 0, head.length, 0);
    if (head.subarray(0, n).includes(0)) throw new Error(`"${rel}" is a binary file; open it in a cell (e.g. with pandas or Biopython).`);
  } finally {
    fs.closeSync(fd);
  }
  const stream = fs.createReadStream(abs, { encoding: 'utf8' });
  const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
  const taken: string[] = [];
  let lineNo = 0;
  let more = false;
  for await (const line of lines) {
    lineNo++;
    if (lineNo < startLine) continue;
    if (taken.length === maxLines) {
      more = true;
      break;
    }
    taken.push(line);
  }
  lines.close();
  stream.destroy();
  const tail = more ? `\n[more lines follow; continue with start_line=${startLine + taken.length}]` : '';
  return { text: taken.join('\n') + tail, output: { path: rel, bytes: size, lines: null, startLine } };
}

export const writeFileTool = defineTool({
  name: 'write_file',
  description: 'Create or overwrite a UTF-8 text file in the session workspace (folders are created).',
  input: z.object({ path: relPath, content: z.string().max(8 * 1024 * 1024), reason: reasonField }).strict(),
  sideEffect: 'write',
  defaultPolicy: 'allow',
  resourceKeys: (a) => [`file:${a.path}`],
  target: (a) => a.path,
  async execute(a, ctx) {
    const { abs, rel } = resolveForWrite(ctx.workspace, a.path);
    const bytes = writeNoFollow(abs, a.content);
    return { text: `Wrote ${bytes} bytes to ${rel}.`, output: { path: rel, bytes } };
  },
});

export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Replace text in a workspace file: old_text must occur exactly once (or set replace_all). Read the file first to copy old_text exactly.',
  input: z
    .object({
      path: relPath,
      old_text: z.string().min(1),
      new_text: z.string(),
      replace_all: z.boolean().optional(),
      reason: reasonField,
    })
    .strict(),
  sideEffect: 'write',
  defaultPolicy: 'allow',
  resourceKeys: (a) => [`file:${a.path}`],
  target: (a) => a.path,
  async execute(a, ctx) {
    const { abs, rel } = resolveExisting(ctx.workspace, a.path);
    resolveForWrite(ctx.workspace, rel);
    const before = fs.readFileSync(abs, 'utf8');
    const count = before.split(a.old_text).length - 1;
    if (count === 0) throw new Error(`old_text does not occur in ${rel}; read the file and copy the text exactly (spaces and line breaks included).`);
    if (count > 1 && !a.replace_all) throw new Error(`old_text occurs ${count} times in ${rel}; add surrounding lines to make it unique, or set replace_all.`);
    const after = a.replace_all ? before.split(a.old_text).join(a.new_text) : before.replace(a.old_text, () => a.new_text);
    const bytes = writeNoFollow(abs, after);
    return { text: `Replaced ${a.replace_all ? count : 1} occurrence(s) in ${rel} (${bytes} bytes now).`, output: { path: rel, replaced: a.replace_all ? count : 1, bytes } };
  },
});

export const fileTools: Tool[] = [listDirTool, readTextFileTool, writeFileTool, editFileTool];
