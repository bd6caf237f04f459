/** The LLM layer's public surface: one port, the providers behind it, prices and errors. */
export type {
  Cost,
  Currency,
  FinishReason,
  JsonSchema,
  LanguageModelPort,
  LlmErrorInfo,
  LlmErrorType,
  LlmMessage,
  LlmRequest,
  LlmTool,
  LlmToolCall,
  Part,
  Usage,
} from './types';
export { createModel, createDefaultModel, prewarmModelThread, resolveForModel, type CreateModelOptions } from './model';
export { LlmError, classifyError } from './errors';
export { costOf, findPrice, priceUsage, PRICES, type PriceEntry } from './pricing';
export { DEFAULT_RETRY, type RetryPolicy } from './retry';
export { ThinkSplitter } from './thinkSplitter';
export { parseToolArguments } from './normalize';
