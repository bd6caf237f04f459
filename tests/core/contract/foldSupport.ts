import fs from 'node:fs';
import path from 'node:path';
import type { StreamChunk } from '../../../src-preload/contract/stream';

/** Reads an SSE fixture into its chunks (the `[DONE]` terminator is not a chunk). */
export function readSseFixture(name: string): StreamChunk[] {
  const text = fs.readFileSync(path.join(import.meta.dirname, '../../fixtures/ui-message-stream', name), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]')
    .map((l) => JSON.parse(l.slice(6)) as StreamChunk);
}
