/**
 * Recorded provider streams (tests/fixtures/llm-streams) as raw script steps.
 * `.raw.sse` files are the exact bytes a provider sent; `.chunks.jsonl` files hold
 * one SSE `data:` payload per line (the AI SDK recorder's format) and are re-framed
 * here the way their wire frames them: Anthropic names each event (`event: <type>`),
 * OpenAI-compatible streams end with `data: [DONE]`, Gemini's do not.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RawStep } from '../../../src-main/core/llm/scripted/script';

export const LLM_STREAM_FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/llm-streams');

export type TranscriptWire = 'openai-compatible' | 'anthropic' | 'gemini';

export function detectWire(firstPayload: Record<string, unknown>): TranscriptWire {
  if (typeof firstPayload.type === 'string') return 'anthropic';
  if ('candidates' in firstPayload || 'usageMetadata' in firstPayload) return 'gemini';
  return 'openai-compatible';
}

export function chunksToSse(jsonl: string): string {
  const lines = jsonl.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return '';
  const wire = detectWire(JSON.parse(lines[0]!) as Record<string, unknown>);
  const events = lines.map((line) => {
    if (wire === 'anthropic') {
      const type = (JSON.parse(line) as { type: string }).type;
      return `event: ${type}\ndata: ${line}\n\n`;
    }
    return `data: ${line}\n\n`;
  });
  if (wire === 'openai-compatible') events.push('data: [DONE]\n\n');
  return events.join('');
}

export function readTranscript(name: string): string {
  const text = fs.readFileSync(path.join(LLM_STREAM_FIXTURES, name), 'utf8');
  return name.endsWith('.chunks.jsonl') ? chunksToSse(text) : text;
}

/** A script step replaying a recorded stream; options split or cut the bytes. */
export function transcriptStep(name: string, options: Omit<RawStep, 'raw'> = {}): RawStep {
  return { raw: readTranscript(name), ...options };
}
