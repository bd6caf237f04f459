import type { StreamChunk } from '../../../src-preload/contract/stream';

/**
 * The UI message stream on an SSE transport: each chunk a `data: <json>` line and a
 * blank line; `data: [DONE]` at the end. Any AI SDK client can consume it.
 */
export function sseEvent(chunk: StreamChunk): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

export const SSE_DONE = 'data: [DONE]\n\n';
