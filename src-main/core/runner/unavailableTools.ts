import type { ActionExecutorPort } from '../engine/ports';

/**
 * The executor used when no tool registry is wired in: every call is answered with a
 * clear error (never silently dropped), so the model can fall back to cells or finalize.
 */
export const unavailableToolsExecutor: ActionExecutorPort = {
  async executeBatch(calls) {
    return calls.map((call) => ({
      toolCallId: call.id,
      toolName: call.name,
      isError: true,
      content: `Unknown tool "${call.name}": no such tool is available in this build. Use a code cell or call finalize_response.`,
    }));
  },
};
