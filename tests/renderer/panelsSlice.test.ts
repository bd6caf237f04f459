import { describe, expect, it } from 'vitest';
import type { Envelope, EvidenceRecord } from '../../src-preload/contract';
import { createBridge } from '../../src-renderer/src/api/bridge';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

const record = (id: string): EvidenceRecord => ({
  id,
  sessionId: 's1',
  kind: 'cell',
  title: `cell ${id}`,
  snippet: '',
  envelope: {},
  createdAt: '2026-01-01T00:00:00.000Z',
});

function storeOver(answer: (route: string, input: unknown) => Envelope<unknown>) {
  const api = fakeBridgeApi(answer);
  const store = createAppStore({ bridge: createBridge(() => api), storage: memoryStorage(), systemLanguages: ['en-US'] });
  return { api, store };
}

describe('panels: artifact.reveal and evidence.get', () => {
  it('reveals a version’s file; where no file manager can, a notice names the path', async () => {
    const { api, store } = storeOver(() => ({ ok: true, data: { revealed: false, path: '/data/blobs/ab/abcd' } }));
    await store.getState().revealArtifact('ver_1');
    expect(api.calls).toEqual([{ route: 'artifact.reveal', input: { versionId: 'ver_1' } }]);
    expect(store.getState().notices.items.map((n) => [n.level, n.message])).toEqual([['info', '/data/blobs/ab/abcd']]);
  });

  it('adds a record fetched by id to the session’s evidence list once, and reports a failure', async () => {
    const { api, store } = storeOver((route, input) => {
      if (route === 'evidence.list') return { ok: true, data: [record('ev_aaaaaaaaaaaaaaaa')] };
      const { id } = input as { id: string };
      if (id === 'ev_bbbbbbbbbbbbbbbb') return { ok: true, data: record(id) };
      return { ok: false, error: { code: 'not_found', message: `No evidence ${id} in session s1.` } };
    });
    await store.getState().loadEvidence('s1');
    await store.getState().fetchEvidence('s1', 'ev_bbbbbbbbbbbbbbbb');
    await store.getState().fetchEvidence('s1', 'ev_bbbbbbbbbbbbbbbb');
    expect(store.getState().evidence.data.map((r) => r.id)).toEqual(['ev_aaaaaaaaaaaaaaaa', 'ev_bbbbbbbbbbbbbbbb']);
    await store.getState().fetchEvidence('s1', 'ev_cccccccccccccccc');
    expect(store.getState().notices.items.map((n) => n.message)).toEqual(['No evidence ev_cccccccccccccccc in session s1.']);
    expect(api.calls.filter((c) => c.route === 'evidence.get')).toHaveLength(3);
  });
});
