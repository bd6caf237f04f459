import type { BridgeApi, DoctorReport, Envelope, SettingsView } from '../../src-preload/contract';
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
