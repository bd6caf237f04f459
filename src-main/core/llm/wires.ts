/**
 * The wire protocols, from the Vercel AI SDK provider packages: their `doStream`
 * (LanguageModelV3) speaks each provider's HTTP + SSE protocol and yields
 * provider-neutral stream parts, which `normalize.ts` turns into ours.
 * The packages are used below the `ai` package on purpose: no hidden retries,
 * no tool execution, and the raw tool-argument text comes through untouched.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import type { WireProtocol } from '../config/providerCatalog';
import { httpFetch } from './httpFetch';
import { joinTextDeltas } from './joinTextDeltas';
import { fetchEndingAtDone } from './sseDone';
import type { FetchFunction, LlmRequest } from './types';

export type { FetchFunction } from './types';

export interface WireSettings {
  providerId: string;
  wire: WireProtocol;
  baseUrl: string;
  apiKey: string | null;
  fetch?: FetchFunction;
  headers?: Record<string, string>;
}

export interface Wire {
  model(modelId: string): LanguageModelV3;
  /** Per-request provider options (reasoning opt-ins) under the provider package's own key. */
  providerOptions(request: LlmRequest, modelId: string): LanguageModelV3CallOptions['providerOptions'];
}

// Gemini returns its thoughts only when asked; models before 2.5 reject the option.
const GEMINI_THINKS = /gemini-(?:2\.5|[3-9])|gemini-(?:pro|flash)(?:-lite)?-latest/;

export function createWire(s: WireSettings): Wire {
  const common = {
    baseURL: s.baseUrl,
    // Every body ends at `data: [DONE]`: the SDK would parse events after it. The default
    // fetch is node:http's (httpFetch.ts: undici copies its socket buffer per event on fast streams).
    fetch: fetchEndingAtDone(s.fetch ?? httpFetch),
    ...(s.headers ? { headers: s.headers } : {}),
  };
  switch (s.wire) {
    case 'openai-compatible': {
      // The package name is also its providerOptions key; keep it stable and simple.
      const provider = createOpenAICompatible({
        ...common,
        // Text deltas that arrive together reach the SDK's parser as one event (joinTextDeltas.ts).
        fetch: fetchEndingAtDone(s.fetch ?? httpFetch, joinTextDeltas),
        name: s.providerId,
        ...(s.apiKey ? { apiKey: s.apiKey } : {}),
        // Ask for the final usage chunk (`stream_options.include_usage`).
        includeUsage: true,
      });
      return { model: (id) => provider.chatModel(id), providerOptions: () => undefined };
    }
    case 'anthropic': {
      // A keyless Anthropic call is refused before this point; the package wants a string.
      const provider = createAnthropic({ ...common, apiKey: s.apiKey ?? '' });
      return {
        model: (id) => provider.languageModel(id),
        providerOptions: (request) =>
          request.reasoningBudgetTokens
            ? { anthropic: { thinking: { type: 'enabled', budgetTokens: request.reasoningBudgetTokens } } }
            : undefined,
      };
    }
    case 'gemini': {
      const provider = createGoogleGenerativeAI({ ...common, apiKey: s.apiKey ?? '' });
      return {
        model: (id) => provider.languageModel(id),
        providerOptions: (request, modelId) => {
          if (!request.reasoningBudgetTokens && !GEMINI_THINKS.test(modelId)) return undefined;
          return {
            google: {
              thinkingConfig: {
                includeThoughts: true,
                ...(request.reasoningBudgetTokens ? { thinkingBudget: request.reasoningBudgetTokens } : {}),
              },
            },
          };
        },
      };
    }
  }
}
