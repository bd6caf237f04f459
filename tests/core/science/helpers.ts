import { MemoryEvidenceStore } from '../../../src-main/core/records/evidenceStore';
import { MemoryResponseCache } from '../../../src-main/core/records/responseCache';
import { ScienceClient } from '../../../src-main/core/science/client';
import { HttpClient } from '../../../src-main/core/science/http';
import { CONNECTORS } from '../../../src-main/core/science/registry';

/** A client whose every host points at one loopback base URL, with no real waiting between retries. */
export function clientFor(base: string, extra: Partial<ConstructorParameters<typeof ScienceClient>[0]> = {}) {
  const evidence = new MemoryEvidenceStore();
  const cache = new MemoryResponseCache();
  const sleeps: number[] = [];
  const client = new ScienceClient({
    connectors: CONNECTORS,
    env: (name) => (name.startsWith('OPENAI4S_') && name.endsWith('_BASE_URL') ? base : undefined),
    http: new HttpClient({ sleep: async (ms) => void sleeps.push(ms), backoffMs: 5 }),
    cache,
    evidence,
    ...extra,
  });
  return { client, evidence, cache, sleeps };
}
