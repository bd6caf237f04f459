import { once } from 'node:events';
import fs from 'node:fs';
import readline from 'node:readline';
import { z } from 'zod';
import { listWorkspaceDir, readFromStart, readSmallWorkspaceFile, withWorkspaceFile, withWorkspaceFileAsync, writeAll, writeWorkspaceFile } from '../../workspace/safeFs';
import { defineTool, reasonField, type Tool } from '../define';

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
    const { rel, entries: rows } = listWorkspaceDir(ctx.workspace, a.path);
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
  execute(a, ctx) {
    // A file that fits is read at once (a cell's call is answered in the turn that read it),
    // through a descriptor opened without following symlinks (kept for the next read of it).
    const whole = readSmallWorkspaceFile(ctx.workspace, a.path, MAX_READ_BYTES);
    if (whole) return linesOf(whole, a);
    return withWorkspaceFileAsync(ctx.workspace, a.path, 'read', async ({ fd, stat: st, rel }) => {
      if (st.size <= MAX_READ_BYTES) return linesOf({ rel, size: st.size, bytes: readFromStart(fd, st.size) }, a);
      if (!a.start_line) throw new Error(`"${rel}" is ${st.size} bytes; read a range with start_line and max_lines, or summarise it in a cell.`);
      return readLargeRange(fd, rel, st.size, a.start_line, a.max_lines ?? 2_000);
    });
  },
});

/** A file of at most MAX_READ_BYTES, whole or the asked range of its lines. */
function linesOf({ rel, size, bytes }: { rel: string; size: number; bytes: Buffer }, a: { start_line?: number; max_lines?: number }) {
  if (bytes.subarray(0, 8192).includes(0)) throw new Error(`"${rel}" is a binary file; open it in a cell (e.g. with pandas or Biopython).`);
  const all = bytes.toString('utf8').split('\n');
  const start = (a.start_line ?? 1) - 1;
  const lines = all.slice(start, a.max_lines ? start + a.max_lines : undefined);
  const more = all.length - start - lines.length;
  const tail = more > 0 ? `\n[${more} more lines; continue with start_line=${start + lines.length + 1}]` : '';
  return { text: lines.join('\n') + tail, output: { path: rel, bytes: size, lines: all.length, startLine: start + 1 } };
}

/**
 * A range of lines of a file too large to hold whole: streamed from the already opened
 * descriptor (the caller closes it), stopping after the range, so memory stays bounded
 * by the range, not the file.
 */
async function readLargeRange(fd: number, rel: string, size: number, startLine: number, maxLines: number) {
  if (readFromStart(fd, 8192).includes(0)) throw new Error(`"${rel}" is a binary file; open it in a cell (e.g. with pandas or Biopython).`);
  // The stream reads through `fd` but must not close it (destroy() would): the caller does.
  const keepOpen = { read: fs.read, close: (_fd: number, cb: (err: NodeJS.ErrnoException | null) => void) => cb(null) };
  const stream = fs.createReadStream('', { fd, start: 0, encoding: 'utf8', fs: keepOpen });
  const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
  const taken: string[] = [];
  let lineNo = 0;
  let more = false;
  try {
    for await (const line of lines) {
      lineNo++;
      if (lineNo < startLine) continue;
      if (taken.length === maxLines) {
        more = true;
        break;
      }
      taken.push(line);
    }
  } finally {
    lines.close();
    // Wait until no read is in flight: the caller closes `fd` next, and a read still
    // queued on that number could hit whatever file reuses it.
    if (!stream.closed) {
      const closed = once(stream, 'close');
      stream.destroy();
      await closed;
    }
  }
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
    const { rel, bytes } = writeWorkspaceFile(ctx.workspace, a.path, a.content);
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
    // Read and rewrite through one descriptor: the file cannot be swapped in between.
    return withWorkspaceFile(ctx.workspace, a.path, 'readwrite', ({ fd, stat, rel }) => {
      const before = readFromStart(fd, stat.size).toString('utf8');
      const count = before.split(a.old_text).length - 1;
      if (count === 0) throw new Error(`old_text does not occur in ${rel}; read the file and copy the text exactly (spaces and line breaks included).`);
      if (count > 1 && !a.replace_all) throw new Error(`old_text occurs ${count} times in ${rel}; add surrounding lines to make it unique, or set replace_all.`);
      const after = Buffer.from(a.replace_all ? before.split(a.old_text).join(a.new_text) : before.replace(a.old_text, () => a.new_text), 'utf8');
      fs.ftruncateSync(fd, 0);
      writeAll(fd, after);
      const bytes = after.length;
      return { text: `Replaced ${a.replace_all ? count : 1} occurrence(s) in ${rel} (${bytes} bytes now).`, output: { path: rel, replaced: a.replace_all ? count : 1, bytes } };
    });
  },
});

export const fileTools: Tool[] = [listDirTool, readTextFileTool, writeFileTool, editFileTool];
