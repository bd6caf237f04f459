import type { StateCreator } from 'zustand';
import type {
  ArtifactBytes,
  ArtifactSummary,
  ArtifactVersion,
} from '../../../src-preload/contract/artifacts';
import type { EvidenceRecord } from '../../../src-preload/contract/evidence';
import { toErrorBody } from '../api/bridge';
import type { AppState, StoreDeps } from './slices';

/** A list the right panel shows, for one session. */
export interface PanelList<T> {
  status: 'idle' | 'loading' | 'ready' | 'error';
  sessionId: string | null;
  items: T[];
  error: string | null;
}

export interface PanelsSlice {
  artifacts: PanelList<ArtifactSummary>;
  evidence: PanelList<EvidenceRecord>;
  loadArtifacts(sessionId: string): Promise<void>;
  loadEvidence(sessionId: string): Promise<void>;
  artifactVersions(artifactId: string): Promise<ArtifactVersion[]>;
  /** Bytes of a version, cached per window (versions are immutable). */
  readArtifact(versionId: string, maxBytes?: number): Promise<ArtifactBytes>;
}

type Slice<T> = StateCreator<AppState, [], [], T>;

const empty = <T>(): PanelList<T> => ({ status: 'idle', sessionId: null, items: [], error: null });

function failed<T>(sessionId: string, error: unknown): PanelList<T> {
  return { status: 'error', sessionId, items: [], error: toErrorBody(error).message };
}

export const createPanelsSlice =
  (deps: StoreDeps): Slice<PanelsSlice> =>
  (set, get) => {
    const bytes = new Map<string, Promise<ArtifactBytes>>();
    const loading = (list: PanelList<unknown>, sessionId: string) =>
      // Keep the items of the same session on screen while refreshing.
      ({
        ...list,
        status: 'loading' as const,
        sessionId,
        items: list.sessionId === sessionId ? list.items : [],
      });
    return {
      artifacts: empty(),
      evidence: empty(),
      async loadArtifacts(sessionId) {
        set((s) => ({ artifacts: loading(s.artifacts, sessionId) as PanelList<ArtifactSummary> }));
        try {
          const items = await deps.bridge.invoke('artifact.list', { sessionId });
          if (get().artifacts.sessionId === sessionId)
            set({ artifacts: { status: 'ready', sessionId, items, error: null } });
        } catch (error) {
          if (get().artifacts.sessionId === sessionId) set({ artifacts: failed(sessionId, error) });
        }
      },
      async loadEvidence(sessionId) {
        set((s) => ({ evidence: loading(s.evidence, sessionId) as PanelList<EvidenceRecord> }));
        try {
          const items = await deps.bridge.invoke('evidence.list', { sessionId, limit: 1000 });
          if (get().evidence.sessionId === sessionId)
            set({ evidence: { status: 'ready', sessionId, items, error: null } });
        } catch (error) {
          if (get().evidence.sessionId === sessionId) set({ evidence: failed(sessionId, error) });
        }
      },
      artifactVersions(artifactId) {
        return deps.bridge.invoke('artifact.versions', { artifactId });
      },
      readArtifact(versionId, maxBytes) {
        const key = `${versionId}:${maxBytes ?? ''}`;
        let found = bytes.get(key);
        if (!found) {
          found = deps.bridge.invoke('artifact.read', maxBytes ? { versionId, maxBytes } : { versionId });
          found.catch(() => bytes.delete(key));
          bytes.set(key, found);
        }
        return found;
      },
    };
  };
