import { z } from 'zod';
import { citedAnswerSchema } from '../../../src-preload/contract/answer';
import type { LlmTool } from '../llm/types';
import { FINALIZE_TOOL } from './routeAction';

/** Strips what providers do not need from a JSON Schema: `$schema` and empty defaults. */
function compact(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _drop, ...rest } = schema;
  return JSON.parse(JSON.stringify(rest, (key, value) => (key === 'default' ? undefined : value)));
}

let built: LlmTool | null = null;

/**
 * finalize_response as the model sees it: the cited-answer schema as JSON Schema. Built
 * once (the conversion took ~1 ms of the main thread at every turn) and frozen, since
 * every turn shares it.
 */
export function finalizeTool(): LlmTool {
  built ??= deepFreeze({
    name: FINALIZE_TOOL,
    description:
      'Submit the final cited answer and end the run. Call it alone. observed/computed claims must cite evidence ids from this session.',
    inputSchema: compact(z.toJSONSchema(citedAnswerSchema, { io: 'input' }) as Record<string, unknown>),
  });
  return built;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** What the provider is offered each turn: the capabilities' tools, then finalize_response last. */
export function withFinalizeTool(tools: readonly LlmTool[]): LlmTool[] {
  return [...tools.filter((t) => t.name !== FINALIZE_TOOL), finalizeTool()];
}
