import type { BridgeApi, DoctorReport, Envelope, ProvidersView, ProviderStatus, SettingsView } from '../../src-preload/contract';
import recorded from './fixtures/doctor-report.linux.json';

/** A deep copy of the recorded report, so a test may change it freely. */
export function recordedReport(): DoctorReport {
  return structuredClone(recorded) as DoctorReport;
}

export interface FakeBridgeApi extends BridgeApi {
  calls: Array<{ route: string; input: unknown }>;
  emit(topic: string, payload: unknown): void;
  listenerCount(): number;
}

/**
 * A stand-in for the preload's `window.openai4s`: `answer` decides each call's
 * envelope, as the main process would; `emit` plays main pushing an event.
 */
export function fakeBridgeApi(
  answer: (route: string, input: unknown) => Envelope<unknown> | Promise<Envelope<unknown>>,
): FakeBridgeApi {
  const listeners = new Set<{ topic: string; callback: (payload: unknown) => void }>();
  const calls: FakeBridgeApi['calls'] = [];
  return {
    calls,
    async invoke(route, input) {
      calls.push({ route, input });
      return answer(route, input);
    },
    on(topic, callback) {
      const entry = { topic, callback };
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    emit(topic, payload) {
      for (const l of [...listeners]) if (l.topic === topic) l.callback(payload);
    },
    listenerCount: () => listeners.size,
  };
}

/** An in-memory Storage half. */
export function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
  };
}

/** Settings with nothing chosen and no keychain: what a fresh installation's settings.get answers. */
export const NO_SETTINGS: SettingsView = {
  settings: { defaultProvider: null, defaultModel: null, sandboxMode: null },
  keys: [],
  keyStorage: { available: false, reason: 'no keychain in this test' },
  dataDir: '/data',
  dataDirSource: 'default',
  activeSandboxMode: 'auto',
};

/** A provider as `provider.list` answers on a fresh installation (catalogue values, no key). */
export function providerStatus(id: string, label: string, patch: Partial<ProviderStatus> = {}): ProviderStatus {
  const prefix = id.toUpperCase();
  return {
    id,
    label,
    local: false,
    requiresKey: true,
    keySource: 'none',
    keyVariable: null,
    keyVariables: [`OPENAI4S_${prefix}_API_KEY`, 'OPENAI4S_LLM_API_KEY'],
    storedKeyHint: null,
    baseUrl: `https://api.${id}.example/v1`,
    baseUrlOrigin: 'default',
    baseUrlVariable: `OPENAI4S_${prefix}_BASE_URL`,
    defaultBaseUrl: `https://api.${id}.example/v1`,
    model: `${id}-model`,
    modelOrigin: 'default',
    modelVariable: `OPENAI4S_${prefix}_MODEL`,
    defaultModel: `${id}-model`,
    isDefault: false,
    readiness: { state: 'no_key' },
    docsUrl: `https://docs.${id}.example`,
    keyUrl: `https://console.${id}.example/keys`,
    ...patch,
  };
}

/** `provider.list` of a first start: Ark (the default) without a key, a local Ollama that does not answer. */
export function firstRunProviders(): ProvidersView {
  return {
    providers: [
      providerStatus('ark', 'Volcengine Ark (Doubao)', { isDefault: true, baseUrl: 'https://ark.cn-beijing.volces.com/api/plan/v3', defaultBaseUrl: 'https://ark.cn-beijing.volces.com/api/plan/v3', model: 'doubao-seed-2.0-pro', defaultModel: 'doubao-seed-2.0-pro' }),
      providerStatus('openai', 'OpenAI', { baseUrl: 'https://api.openai.com/v1', defaultBaseUrl: 'https://api.openai.com/v1' }),
      providerStatus('ollama', 'Ollama (local)', {
        local: true,
        requiresKey: false,
        keyUrl: null,
        baseUrl: 'http://127.0.0.1:11434/v1',
        defaultBaseUrl: 'http://127.0.0.1:11434/v1',
        model: 'qwen3:8b',
        readiness: { state: 'not_running', checkedAt: '2026-01-01T00:00:00Z', detail: 'connection refused', detailCode: 'refused' },
      }),
    ],
    defaultProvider: 'ark',
    keyStorage: { available: true, reason: null },
  };
}
