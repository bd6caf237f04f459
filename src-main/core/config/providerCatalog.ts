/**
 * The providers the app knows, with their documented endpoints and a default model
 * each. Base URLs include the version path, like the official SDKs. The user can
 * type any model id; these are only defaults.
 */
export type WireProtocol = 'openai-compatible' | 'anthropic' | 'gemini';

export interface ProviderSpec {
  id: string;
  label: string;
  /** The `<PROVIDER>` part of `OPENAI4S_<PROVIDER>_API_KEY` and friends. */
  envPrefix: string;
  wire: WireProtocol;
  baseUrl: string;
  defaultModel: string;
  /** Local servers (Ollama) need no key. */
  requiresKey: boolean;
  docsUrl: string;
  /** Where a key is created (the provider's console); null when none is needed. */
  keyUrl: string | null;
}

export const PROVIDERS: readonly ProviderSpec[] = [
  {
    id: 'ark',
    label: 'Volcengine Ark (Doubao)',
    envPrefix: 'ARK',
    wire: 'openai-compatible',
    // The Agent Plan (the ¥9.9/month tier); pay-as-you-go is https://ark.cn-beijing.volces.com/api/v3.
    baseUrl: 'https://ark.cn-beijing.volces.com/api/plan/v3',
    defaultModel: 'doubao-seed-2.0-pro',
    requiresKey: true,
    keyUrl: 'https://console.volcengine.com/ark/region:ark+cn-beijing/apiKey',
    docsUrl: 'https://www.volcengine.com/docs/82379',
  },
  {
    id: 'openai',
    label: 'OpenAI',
    envPrefix: 'OPENAI',
    wire: 'openai-compatible',
    baseUrl: 'https://api.openai.com/v1',
    defaultModel: 'gpt-5-mini',
    requiresKey: true,
    keyUrl: 'https://platform.openai.com/api-keys',
    docsUrl: 'https://platform.openai.com/docs',
  },
  {
    id: 'anthropic',
    label: 'Anthropic',
    envPrefix: 'ANTHROPIC',
    wire: 'anthropic',
    baseUrl: 'https://api.anthropic.com/v1',
    defaultModel: 'claude-sonnet-4-5',
    requiresKey: true,
    keyUrl: 'https://console.anthropic.com/settings/keys',
    docsUrl: 'https://docs.anthropic.com',
  },
  {
    id: 'gemini',
    label: 'Google Gemini',
    envPrefix: 'GEMINI',
    wire: 'gemini',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    defaultModel: 'gemini-2.5-flash',
    requiresKey: true,
    keyUrl: 'https://aistudio.google.com/apikey',
    docsUrl: 'https://ai.google.dev/gemini-api/docs',
  },
  {
    id: 'deepseek',
    label: 'DeepSeek',
    envPrefix: 'DEEPSEEK',
    wire: 'openai-compatible',
    baseUrl: 'https://api.deepseek.com/v1',
    defaultModel: 'deepseek-chat',
    requiresKey: true,
    keyUrl: 'https://platform.deepseek.com/api_keys',
    docsUrl: 'https://api-docs.deepseek.com',
  },
  {
    id: 'ollama',
    label: 'Ollama (local)',
    envPrefix: 'OLLAMA',
    wire: 'openai-compatible',
    baseUrl: 'http://127.0.0.1:11434/v1',
    defaultModel: 'qwen3:8b',
    requiresKey: false,
    keyUrl: null,
    docsUrl: 'https://ollama.com',
  },
  {
    id: 'openrouter',
    label: 'OpenRouter',
    envPrefix: 'OPENROUTER',
    wire: 'openai-compatible',
    baseUrl: 'https://openrouter.ai/api/v1',
    defaultModel: 'openrouter/auto',
    requiresKey: true,
    keyUrl: 'https://openrouter.ai/keys',
    docsUrl: 'https://openrouter.ai/docs',
  },
];

export const DEFAULT_PROVIDER_ID = 'ark';

export function findProvider(id: string): ProviderSpec | undefined {
  return PROVIDERS.find((p) => p.id === id);
}
