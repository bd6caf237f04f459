import { z } from 'zod';
import type { RecallRange, ResultArchive } from '../../archive/resultArchive';
import { MAX_PAGE_BYTES } from '../../archive/resultArchive';
import { defineTool, type Tool } from '../define';

const input = z
  .object({
    sha256: z.string().regex(/^[0-9a-fA-F]{64}$/, 'the 64-hex sha256 from the "Archived result" note'),
    byte_offset: z.number().int().min(0).optional().describe('Start of the page in bytes (0, or nextByteOffset of the previous page).'),
    start_line: z.number().int().min(1).optional().describe('Or: the first line of the page (1-based).'),
    line_count: z.number().int().min(1).max(10_000).optional(),
    max_bytes: z.number().int().min(1).max(MAX_PAGE_BYTES).optional(),
  })
  .strict()
  .refine((a) => a.byte_offset === undefined || a.start_line === undefined, 'give byte_offset or start_line, not both');

/**
 * recall (issue 19): reads back a result the context policy archived, by its sha256, one
 * page at a time. Offered on demand: the preview note names it, and the runner offers it
 * to a run as soon as that run archives something. The page text in `output` is exactly the
 * archived bytes [byteStart, byteEnd); the model's copy is marked as outside data (a page may
 * start inside what was a marked block), which may replace marker look-alikes in it.
 */
export function recallTool(archive: () => Pick<ResultArchive, 'recall'>): Tool {
  return defineTool({
    name: 'recall',
    description: 'Read an archived tool or cell result by its sha256, a page at a time (by byte_offset or start_line).',
    input,
    sideEffect: 'read',
    defaultPolicy: 'allow',
    onDemand: true,
    hostMethods: ['recall'],
    // A page plus its header, never cut by the shared truncation.
    maxOutputBytes: MAX_PAGE_BYTES + 1_024,
    resourceKeys: (a) => [`archive:${a.sha256.toLowerCase()}`],
    target: (a) => a.sha256.toLowerCase(),
    async execute(a, ctx) {
      const range: RecallRange =
        a.start_line !== undefined
          ? { startLine: a.start_line, ...(a.line_count !== undefined ? { lineCount: a.line_count } : {}), ...(a.max_bytes !== undefined ? { maxBytes: a.max_bytes } : {}) }
          : { ...(a.byte_offset !== undefined ? { byteOffset: a.byte_offset } : {}), ...(a.max_bytes !== undefined ? { maxBytes: a.max_bytes } : {}) };
      const page = archive().recall(ctx.sessionId, a.sha256, range);
      const next = page.nextByteOffset === null ? 'This is the end.' : `Next page: recall with sha256="${page.sha256}", byte_offset=${page.nextByteOffset}.`;
      const header = `Archived result ${page.sha256}: bytes ${page.byteStart}-${page.byteEnd} of ${page.totalBytes}, lines ${page.lineStart}-${page.lineEnd} of ${page.totalLines}. ${next}`;
      return { text: `${header}\n${page.text}`, output: page, untrustedSource: `archived result ${page.sha256.slice(0, 12)}` };
    },
  });
}
