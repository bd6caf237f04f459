import { describe, expect, it } from 'vitest';
import { runEngine } from '../../../src-main/core/engine/loop';
import type { ContextRequest } from '../../../src-main/core/engine/ports';
import type { LlmMessage } from '../../../src-main/core/llm/types';
import { RecordingMockModel, finish, toolCall, validAnswer } from '../../support/mockModel';

// The engine side of issue 19: the policy is asked before every request with the system
// prompt of that turn (rebuilt each time), the request takes the policy's system text, and
// a summary call the policy made counts in the run's usage.
describe('the engine and its context policy', () => {
  it('rebuilds the system prompt each turn, sends the policy system text, and adds the policy usage', async () => {
    const model = new RecordingMockModel([
      [...toolCall('a', 'list_dir', {}), finish('tool-calls')],
      [...toolCall('f', 'finalize_response', validAnswer), finish()],
    ]);
    const seen: ContextRequest[] = [];
    let built = 0;
    const result = await runEngine(
      {
        model,
        executor: { executeBatch: async (calls) => calls.map((c) => ({ toolCallId: c.id, toolName: c.name, content: 'ok', isError: false })) },
        kernel: { executeCell: async () => ({ ok: true, summary: '' }) },
        context: {
          async prepare(history: readonly LlmMessage[], request?: ContextRequest) {
            seen.push(request!);
            return { messages: [...history], system: `${request!.system}\n# Standing context\nturn ${seen.length}`, usage: { promptTokens: 1_000, completionTokens: 200, reasoningTokens: null, cachedTokens: null } };
          },
        },
        sink: { emit: () => undefined },
        evidence: { missing: () => [] },
      },
      { sessionId: 's', runId: 'r', system: () => `system v${++built}`, tools: [], history: [{ role: 'user', content: 'q' }], signal: new AbortController().signal },
    );
    expect(result.status).toBe('completed');
    expect(seen.map((r) => r.system)).toEqual(['system v1', 'system v2']);
    expect(model.requests.map((r) => r.system)).toEqual(['system v1\n# Standing context\nturn 1', 'system v2\n# Standing context\nturn 2']);
    // Two model replies (10 + 10 prompt tokens in the mock) and two policy calls (1,000 each).
    expect(result.usage.promptTokens).toBe(2_020);
    expect(result.usage.completionTokens).toBe(410);
  });
});
