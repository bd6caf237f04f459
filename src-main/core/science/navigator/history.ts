import { errorMessage } from '../../shared/errorMessage';
import { NavigatorError } from './errors';
import { jsonChildTexts } from './jsonSpan';
import { captureReceipts, type Receipt } from './receipts';
import type { Snp2Event, Snp2Merger } from './snp2';

/**
 * The history answer as merged state: each entry is a whole message (the stream's appends,
 * deltas and patches already applied), so each is replayed as one `append`. An answer
 * whose main text reports status 1 (or 2) is finished (or failed); otherwise it is still
 * being generated (so is every answer while the service says `need_stream: true`). Entry shapes accepted: a stream event envelope (`{channel: {...}}`),
 * a bare channel (`{uiInfo, answerId, ...}`), or a flat message (`{layout, subType, content, ...}`).
 */
export function mergeHistory(raw: string, merger: Snp2Merger, receipts: Map<string, Receipt>): void {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch (error) {
    throw new NavigatorError('malformed_response', `the history answer is not JSON (${errorMessage(error)}).`);
  }
  const b = (body ?? {}) as { code?: unknown; message?: unknown; data?: unknown; historyData?: unknown };
  if (typeof b.code === 'number' && b.code !== 0) {
    throw new NavigatorError('upstream_error', `reading the history failed: ${typeof b.message === 'string' ? b.message : 'no message'} (code ${b.code}).`);
  }
  const data = b.data as { historyData?: unknown } | unknown[] | undefined;
  let list: unknown[];
  let at: (string | number)[];
  if (data && !Array.isArray(data) && Array.isArray(data.historyData)) [list, at] = [data.historyData, ['data', 'historyData']];
  else if (Array.isArray(b.historyData)) [list, at] = [b.historyData, ['historyData']];
  else if (Array.isArray(data)) [list, at] = [data, ['data']];
  else throw new NavigatorError('malformed_response', 'the history answer has no historyData list.');

  // Each entry's own text, split out in one pass: its receipts are found inside it, not by rescanning the whole answer.
  const entryTexts = jsonChildTexts(raw, at);
  list.forEach((entry, i) => {
    if (!entry || typeof entry !== 'object') return;
    const e = entry as Record<string, unknown>;
    let channel: Record<string, unknown>;
    let uiPath: string[];
    if (e.channel && typeof e.channel === 'object') [channel, uiPath] = [e.channel as Record<string, unknown>, ['channel', 'uiInfo']];
    else if (e.uiInfo && typeof e.uiInfo === 'object') [channel, uiPath] = [e, ['uiInfo']];
    else [channel, uiPath] = [{ answerId: e.answerId, messageId: e.messageId, role: e.role, uiInfo: { layout: e.layout, subType: e.subType, content: e.content } }, []];
    const ui = (channel.uiInfo ?? {}) as Record<string, unknown>;
    const event: Snp2Event = {
      channel: { ...(channel as NonNullable<Snp2Event['channel']>), uiInfo: { ...ui, actionList: [{ key: 'text', action: 'append' }], patches: undefined } },
    };
    captureReceipts(event, entryTexts?.get(i) ?? '', uiPath, 'history', receipts);
    merger.apply(event);
  });
  // `need_stream: false` is the service saying the answer is complete (public integrations poll for it).
  const needStream = data && !Array.isArray(data) ? (data as { need_stream?: unknown }).need_stream : undefined;
  for (const answer of merger.answers.values()) {
    const main = [...(answer.layouts.get('main')?.values() ?? [])].find((m) => m.subType === '@bohrium-chat/common/markdown' || typeof m.content.text === 'string');
    const status = main?.content.status;
    if (needStream === true && status !== 2) continue;
    if (status === 1 || (needStream === false && status !== 2)) merger.apply({ channel: { answerId: answer.answerId }, system: { event: { type: 'finish' } } });
    else if (status === 2) merger.apply({ channel: { answerId: answer.answerId }, system: { event: { type: 'error', message: 'the navigator marked the answer as failed (content.status 2)' } } });
  }
}
