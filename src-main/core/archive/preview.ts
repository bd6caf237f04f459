import { annotateUntrusted } from '../security/untrusted';
import type { ArchivedRef } from './resultArchive';

/** Characters of the start and of the end of an archived result left in context. */
export const PREVIEW_HEAD_CHARS = 700;
export const PREVIEW_TAIL_CHARS = 300;

/** The first line of every preview; the policy and tests recognise an archived result by it. */
export const ARCHIVED_NOTE = '[Archived result';

/**
 * What stays in the model's context of an archived result: its size, its sha256, how to
 * read it back (`recall`), and its head and tail. A result that carried outside content
 * (untrusted-data markers) gets its preview wrapped again, since a cut through a marked
 * block would leave outside text without its markers.
 */
export function archivedPreview(content: string, ref: ArchivedRef, label: string): string {
  const note =
    `${ARCHIVED_NOTE} of ${label}: ${ref.bytes} bytes, ${ref.lines} lines, sha256 ${ref.sha256}. ` +
    `The full text is archived: call recall with sha256="${ref.sha256}" (byte_offset or start_line to page; find_tools("recall") offers it if it is not listed). Preview:]`;
  const chars = [...content];
  let body: string;
  if (chars.length <= PREVIEW_HEAD_CHARS + PREVIEW_TAIL_CHARS + 40) body = content;
  else {
    const head = chars.slice(0, PREVIEW_HEAD_CHARS).join('');
    const tail = chars.slice(-PREVIEW_TAIL_CHARS).join('');
    body = `${head}\n[… ${chars.length - PREVIEW_HEAD_CHARS - PREVIEW_TAIL_CHARS} characters not shown …]\n${tail}`;
  }
  if (/<<<|>>>|untrusted[\s_-]*data/i.test(content)) body = annotateUntrusted(`archived result ${ref.sha256.slice(0, 12)}`, body).text;
  return `${note}\n${body}`;
}
