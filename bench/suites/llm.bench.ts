import { loadConfigEnv } from '../../src-main/core/config/env';
import { createModel } from '../../src-main/core/llm';
import { startScriptedModel, transcriptStep } from '../../tests/support/scriptedModel';
import type { BenchSuite } from '../types';

/**
 * The provider layer's own overhead: a recorded DeepSeek reasoner stream (~70 KB,
 * ~500 SSE events) replayed from loopback through the full port (HTTP, SSE parse,
 * AI SDK wire, normalization), and a scripted reply's time to first part.
 */
const suite: BenchSuite = {
  name: 'llm',
  async run() {
    const server = await startScriptedModel();
    try {
      const env = loadConfigEnv('/nonexistent', { OPENAI4S_DEEPSEEK_API_KEY: 'bench', OPENAI4S_DEEPSEEK_BASE_URL: server.baseUrl });
      const model = createModel('deepseek', { env });
      const request = { messages: [{ role: 'user' as const, content: 'hi' }] };
      const rounds = 30;
      let parts = 0;
      let firstPartMs = 0;
      for (let i = 0; i < rounds + 5; i++) server.push(transcriptStep('deepseek-reasoner-thinking.raw.sse'));
      for (let i = 0; i < 5; i++) for await (const _ of model.stream(request)) void _;
      const t0 = performance.now();
      for (let i = 0; i < rounds; i++) for await (const _ of model.stream(request)) parts++;
      const ms = performance.now() - t0;

      const n = 30;
      for (let i = 0; i < n; i++) server.push({ reply: [{ text: 'x'.repeat(200) }] });
      for (let i = 0; i < n; i++) {
        const start = performance.now();
        for await (const p of model.stream(request)) {
          if (p.type === 'text-delta') {
            firstPartMs += performance.now() - start;
            break;
          }
        }
      }
      // Issue 4 sets no performance target; these are measurements only.
      return [
        { metric: 'recorded stream replay (full port)', value: ms / rounds, unit: 'ms/stream' },
        { metric: 'parts per second', value: Math.round(parts / (ms / 1000)), unit: 'parts/s' },
        { metric: 'time to first text part (loopback)', value: firstPartMs / n, unit: 'ms' },
      ];
    } finally {
      await server.close();
    }
  },
};
export default suite;
