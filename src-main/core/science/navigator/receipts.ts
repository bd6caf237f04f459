import { createHash } from 'node:crypto';
import { jsonChildTexts, jsonValueText } from './jsonSpan';
import type { Snp2Event } from './snp2';

/** The exact bytes a reference record arrived as: their hash, length and where they came from. */
export interface Receipt {
  sha256: string;
  byteLength: number;
  /** `stream`: an SSE event; `history`: the history endpoint's answer. */
  source: 'stream' | 'history';
}

const RESOURCE_PATH = /^\/data\/resourceMap\/([^/]+)$/;

/** RFC 6901 unescaping of one pointer token (`~1` is "/", `~0` is "~"). */
const unescapeToken = (t: string) => t.replace(/~1/g, '/').replace(/~0/g, '~');

function receiptOf(text: string, source: Receipt['source']): Receipt {
  const bytes = Buffer.from(text, 'utf8');
  return { sha256: createHash('sha256').update(bytes).digest('hex'), byteLength: bytes.byteLength, source };
}

/**
 * Records the receipt of every whole resource record an event carries: a patch that adds or
 * replaces `/data/resourceMap/<id>`, or an append whose content has `data.resourceMap`. The
 * bytes are the value's own text inside the raw JSON (`uiPath` locates the event's `uiInfo`
 * in `raw`: `['channel', 'uiInfo']` for a stream event or a history entry in that shape, with
 * `raw` the entry's own text). The latest whole record wins, as it does in the merged state.
 */
export function captureReceipts(event: Snp2Event, raw: string, uiPath: readonly (string | number)[], source: Receipt['source'], into: Map<string, Receipt>): void {
  const ui = event.channel?.uiInfo;
  if (!ui) return;
  // Each list is split into its members' texts once (one pass), not searched per member.
  if (Array.isArray(ui.patches)) {
    const texts = jsonChildTexts(raw, [...uiPath, 'patches']);
    ui.patches.forEach((p: unknown, i: number) => {
      const op = p as { op?: unknown; path?: unknown };
      if ((op.op !== 'add' && op.op !== 'replace') || typeof op.path !== 'string') return;
      const m = RESOURCE_PATH.exec(op.path);
      const patch = texts?.get(i);
      if (!m || patch === undefined) return;
      const text = jsonValueText(patch, ['value']);
      if (text !== null) into.set(unescapeToken(m[1]!), receiptOf(text, source));
    });
  }
  const content = ui.content as { data?: { resourceMap?: unknown } } | undefined;
  const map = content?.data?.resourceMap;
  if (map && typeof map === 'object' && !Array.isArray(map)) {
    const texts = jsonChildTexts(raw, [...uiPath, 'content', 'data', 'resourceMap']);
    for (const id of Object.keys(map)) {
      const text = texts?.get(id);
      if (text !== undefined) into.set(id, receiptOf(text, source));
    }
  }
}
