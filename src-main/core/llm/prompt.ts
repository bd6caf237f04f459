/**
 * Our request (messages, system, tools) in the AI SDK's provider-neutral prompt
 * format, which each provider package turns into its own wire body.
 */
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
} from '@ai-sdk/provider';
import type { LlmMessage, LlmRequest, LlmTool } from './types';

/**
 * A past tool call is sent back with its parsed arguments; if they never parsed,
 * the raw text goes back as is, so the model sees exactly what it wrote.
 */
function toolInput(rawArguments: string): unknown {
  if (rawArguments.trim() === '') return {};
  try {
    return JSON.parse(rawArguments) as unknown;
  } catch {
    // Arguments the model sent as broken JSON are replayed as the text it sent.
    return rawArguments;
  }
}

export function toPromptMessage(message: LlmMessage): LanguageModelV3Message {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: [{ type: 'text', text: message.content }] };
    case 'assistant': {
      const content: Extract<LanguageModelV3Message, { role: 'assistant' }>['content'] = [];
      if (message.reasoning) content.push({ type: 'reasoning', text: message.reasoning });
      if (message.content) content.push({ type: 'text', text: message.content });
      for (const call of message.toolCalls ?? []) {
        content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: toolInput(call.rawArguments) });
      }
      return { role: 'assistant', content };
    }
    case 'tool':
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: message.toolCallId,
            toolName: message.toolName,
            output: message.isError ? { type: 'error-text', value: message.content } : { type: 'text', value: message.content },
          },
        ],
      };
  }
}

function toFunctionTool(tool: LlmTool): LanguageModelV3FunctionTool {
  return {
    type: 'function',
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema as LanguageModelV3FunctionTool['inputSchema'],
  };
}

export function toCallOptions(
  request: LlmRequest,
  providerOptions: LanguageModelV3CallOptions['providerOptions'],
  signal: AbortSignal,
): LanguageModelV3CallOptions {
  const prompt: LanguageModelV3Message[] = [];
  if (request.system) prompt.push({ role: 'system', content: request.system });
  for (const m of request.messages) prompt.push(toPromptMessage(m));
  const tools = request.tools?.map(toFunctionTool);
  return {
    prompt,
    ...(tools && tools.length > 0 ? { tools, toolChoice: { type: 'auto' as const } } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
    ...(providerOptions ? { providerOptions } : {}),
    abortSignal: signal,
  };
}
