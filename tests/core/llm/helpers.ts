import { loadConfigEnv, type ConfigEnv } from '../../../src-main/core/config/env';
import { findProvider } from '../../../src-main/core/config/providerCatalog';
import { createModel, type CreateModelOptions, type LlmRequest, type Part } from '../../../src-main/core/llm';

/** A config environment from explicit variables only (no real environment, no .env). */
export function envOf(vars: Record<string, string>): ConfigEnv {
  return loadConfigEnv('/nonexistent-openai4s-test-dir', vars);
}

/** A model for `providerId` pointed at `baseUrl` with a dummy key. */
export function modelAt(providerId: string, baseUrl: string, extra: Partial<CreateModelOptions> = {}) {
  const prefix = findProvider(providerId)!.envPrefix;
  const env = envOf({ [`OPENAI4S_${prefix}_API_KEY`]: 'test-key-123', [`OPENAI4S_${prefix}_BASE_URL`]: baseUrl });
  return createModel(providerId, { env, retry: { baseDelayMs: 5, maxDelayMs: 20 }, ...extra });
}

export const hello: LlmRequest = { messages: [{ role: 'user', content: 'hello' }] };

export async function collect(iterable: AsyncIterable<Part>): Promise<Part[]> {
  const parts: Part[] = [];
  for await (const p of iterable) parts.push(p);
  return parts;
}

/** Adjacent text / reasoning / argument deltas merged, so expectations do not depend on chunking. */
export function compact(parts: Part[]): Part[] {
  const out: Part[] = [];
  for (const p of parts) {
    const last = out[out.length - 1];
    if ((p.type === 'text-delta' || p.type === 'reasoning-delta') && last?.type === p.type) {
      out[out.length - 1] = { ...last, text: last.text + p.text };
    } else if (p.type === 'tool-call-delta' && last?.type === 'tool-call-delta' && last.id === p.id) {
      out[out.length - 1] = { ...last, delta: last.delta + p.delta };
    } else out.push({ ...p });
  }
  return out;
}

export const textOf = (parts: Part[]) => parts.flatMap((p) => (p.type === 'text-delta' ? [p.text] : [])).join('');
export const reasoningOf = (parts: Part[]) => parts.flatMap((p) => (p.type === 'reasoning-delta' ? [p.text] : [])).join('');
export const last = (parts: Part[]) => parts[parts.length - 1]!;
