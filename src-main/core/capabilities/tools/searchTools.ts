import path from 'node:path';
import { z } from 'zod';
import { readFromStart, walkWorkspaceFiles, withWorkspaceFile, workspaceRelative } from '../../workspace/safeFs';
import { defineTool, type Tool } from '../define';
import { errorMessage } from '../../shared/errorMessage';

const MAX_FILES_WALKED = 20_000;
const MAX_SEARCH_FILE_BYTES = 2 * 1024 * 1024;

/** `*` within a segment, `**` across segments, `?` one character, `{a,b}` alternatives. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slash = glob[i + 2] === '/';
        re += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      const end = glob.indexOf('}', i);
      if (end < 0) re += '\\{';
      else {
        re += `(?:${glob.slice(i + 1, end).split(',').map((s) => s.replace(/[.+^$()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')).join('|')})`;
        i = end;
      }
    } else re += c.replace(/[.+^$()|[\]\\}]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

export const globFilesTool = defineTool({
  name: 'glob_files',
  description: 'Find workspace files by glob pattern, e.g. "**/*.csv" or "results/*.{png,svg}". Symlinks are not followed.',
  input: z.object({ pattern: z.string().min(1).max(300), max_results: z.number().int().min(1).max(2000).default(200) }).strict(),
  sideEffect: 'read',
  // Offered on demand (find_tools): kept out of the first request.
  onDemand: true,
  defaultPolicy: 'allow',
  resourceKeys: () => ['file:*'],
  target: (a) => a.pattern,
  async execute(a, ctx) {
    // The same lexical rule (and refusal) as every workspace path: no absolute path, no "..".
    workspaceRelative(a.pattern);
    const re = globToRegExp(a.pattern);
    const found: string[] = [];
    for (const rel of walkWorkspaceFiles(ctx.workspace, '.', MAX_FILES_WALKED)) {
      if (re.test(rel)) found.push(rel);
      if (found.length >= a.max_results) break;
    }
    found.sort();
    return { text: found.length ? found.join('\n') : `No file matches ${a.pattern}.`, output: { pattern: a.pattern, files: found } };
  },
});

export const contentSearchTool = defineTool({
  name: 'content_search',
  description: 'Search text files of the workspace for a regular expression (JavaScript syntax); returns path:line: text.',
  input: z
    .object({
      pattern: z.string().min(1).max(500),
      path: z.string().max(1024).default('.'),
      glob: z.string().max(300).optional(),
      ignore_case: z.boolean().optional(),
      max_results: z.number().int().min(1).max(2000).default(100),
    })
    .strict(),
  sideEffect: 'read',
  // Offered on demand (find_tools): kept out of the first request.
  onDemand: true,
  defaultPolicy: 'allow',
  resourceKeys: () => ['file:*'],
  target: (a) => a.path,
  async execute(a, ctx) {
    let re: RegExp;
    try {
      re = new RegExp(a.pattern, a.ignore_case ? 'i' : '');
    } catch (error) {
      throw new Error(`The pattern is not a valid regular expression: ${errorMessage(error)}`);
    }
    const only = a.glob ? globToRegExp(a.glob) : null;
    const hits: { path: string; line: number; text: string }[] = [];
    // Folders are walked and files read without following symlinks (see safeFs.ts).
    const files = walkWorkspaceFiles(ctx.workspace, a.path, MAX_FILES_WALKED);
    outer: for (const rel of files) {
      if (only && !only.test(rel) && !only.test(path.posix.basename(rel))) continue;
      let bytes: Buffer | null;
      try {
        bytes = withWorkspaceFile(ctx.workspace, rel, 'read', ({ fd, stat }) => (stat.size > MAX_SEARCH_FILE_BYTES ? null : readFromStart(fd, stat.size)));
      } catch {
        continue; // changed or replaced since the walk listed it
      }
      if (!bytes || bytes.subarray(0, 8192).includes(0)) continue;
      const lines = bytes.toString('utf8').split('\n');
      for (let i = 0; i < lines.length; i++) {
        if (re.test(lines[i]!)) {
          hits.push({ path: rel, line: i + 1, text: lines[i]!.slice(0, 300) });
          if (hits.length >= a.max_results) break outer;
        }
      }
    }
    return {
      text: hits.length ? hits.map((h) => `${h.path}:${h.line}: ${h.text}`).join('\n') : `No match for /${a.pattern}/.`,
      output: { pattern: a.pattern, hits },
    };
  },
});

export const searchTools: Tool[] = [globFilesTool, contentSearchTool];
