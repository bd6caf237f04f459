import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fold, FOLD_VERSION } from '../../../src-preload/contract/fold';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import { readSseFixture } from './foldSupport';

/**
 * Stored folds (ledger/historyFolds.ts) are read only when folded by this FOLD_VERSION. A
 * change to what the fold makes of the same chunks must bump it, or a session opened after
 * an upgrade would show its earlier turns as the old fold made them. This pins the fold of
 * recorded streams and of every kind of chunk: when it fails, bump FOLD_VERSION and pin the
 * new digest with it.
 */
const PINNED = { version: 1, sha256: 'dfb332ca6daa8ef47f52456b9aae468db4d6a355454b5d4b15e83b822727ff79' };

const everyKind: StreamChunk[] = [
  { type: 'user-message', messageId: 'u-kinds', text: 'every kind', files: [{ url: 'data:text/plain,a', mediaType: 'text/plain', filename: 'a.txt' }], metadata: { at: 1 } },
  { type: 'start', messageId: 'a-kinds', messageMetadata: { model: 'm' } },
  { type: 'start-step' },
  { type: 'reasoning-start', id: 'r' },
  { type: 'reasoning-delta', id: 'r', delta: 'think' },
  { type: 'reasoning-end', id: 'r' },
  { type: 'tool-input-start', toolCallId: 'c1', toolName: 'science_search' },
  { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"query":"INS", "limit": 5' },
  { type: 'tool-input-start', toolCallId: 'c2', toolName: 'web_fetch', dynamic: true },
  { type: 'tool-input-available', toolCallId: 'c2', toolName: 'web_fetch', input: { url: 'https://example.org' } },
  { type: 'tool-approval-request', toolCallId: 'c2', approvalId: 'ap1' },
  { type: 'tool-output-error', toolCallId: 'c2', errorText: 'refused' },
  { type: 'data-thinking-step', id: 's1', data: { title: 'searching', status: 'running' } },
  { type: 'data-thinking-step', id: 's1', patch: [{ op: 'replace', path: '/status', value: 'completed' }] },
  { type: 'data-thinking-step', id: 's1', patch: [{ op: 'replace', path: '/missing/x', value: 1 }] },
  { type: 'source-url', sourceId: 'src1', url: 'https://example.org/p', title: 'p' },
  { type: 'file', url: 'data:image/png;base64,AA==', mediaType: 'image/png' },
  { type: 'text-delta', id: 'unknown', delta: 'no start' },
  { type: 'tool-output-available', toolCallId: 'nope', output: 1 },
  { type: 'error', errorText: 'model failed' },
  { type: 'finish-step' },
  { type: 'message-metadata', messageMetadata: { tokens: 3 } },
  { type: 'abort', reason: 'stopped' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'after abort' },
  { type: 'finish', finishReason: 'stop' },
] as StreamChunk[];

function pinnedStream(): StreamChunk[] {
  const files = ['vercel-ai-ui-stream-text.sse', 'vercel-ai-ui-stream-reasoning-text.sse', 'vercel-ai-ui-stream-protocol-part-examples.sse', 'vercel-ai-ui-stream-testing-doc.sse'];
  return [...files.flatMap((file, i): StreamChunk[] => [{ type: 'user-message', messageId: `u${i}`, text: file }, ...readSseFixture(file)]), ...everyKind];
}

describe('FOLD_VERSION', () => {
  it('names the fold that made these messages: a change to the fold of the same chunks bumps it (stored folds of another version are not read)', () => {
    const digest = createHash('sha256').update(JSON.stringify(fold(pinnedStream()))).digest('hex');
    const now = { version: FOLD_VERSION, sha256: digest };
    expect(now, 'the fold makes other messages of the same chunks: bump FOLD_VERSION in contract/fold.ts and pin the new digest here').toEqual(PINNED);
  });
});
