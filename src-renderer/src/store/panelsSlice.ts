import type { ArtifactBytes, ArtifactSummary, EvidenceRecord } from '../../../src-preload/contract';
import { errorNotice } from './noticesReducer';
import { createLoader, idle } from './loadable';
import type { PanelList, PanelsSlice, Slice, StoreDeps } from './types';

const emptyPanel = <T>(): PanelList<T> => ({ ...idle<T[]>([]), sessionId: null });

/** A load for `sessionId` keeps the list on screen when it is that session's, else starts empty. */
const forSession =
  (sessionId: string) =>
  <T>(list: PanelList<T>): PanelList<T> =>
    list.sessionId === sessionId ? list : { ...list, sessionId, data: [] };

export const createPanelsSlice =
  (deps: StoreDeps): Slice<PanelsSlice> =>
  (set, get) => {
    const bytes = new Map<string, Promise<ArtifactBytes>>();
    const artifacts = createLoader<PanelList<ArtifactSummary>>((change) =>
      set((s) => ({ artifacts: change(s.artifacts) })),
    );
    const evidence = createLoader<PanelList<EvidenceRecord>>((change) =>
      set((s) => ({ evidence: change(s.evidence) })),
    );
    return {
      artifacts: emptyPanel(),
      evidence: emptyPanel(),
      loadArtifacts: (sessionId) =>
        artifacts(() => deps.bridge.invoke('artifact.list', { sessionId }), forSession(sessionId)),
      loadEvidence: (sessionId) =>
        evidence(
          () => deps.bridge.invoke('evidence.list', { sessionId, limit: 1000 }),
          forSession(sessionId),
        ),
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
      async revealArtifact(versionId) {
        try {
          const { revealed, path } = await deps.bridge.invoke('artifact.reveal', { versionId });
          // Without a file manager (a browser, a headless run) the path is the next best thing.
          if (!revealed) get().receiveNotice({ level: 'info', message: path });
        } catch (error) {
          get().receiveNotice(errorNotice(error));
        }
      },
      async exportBibliography(sessionId, format) {
        try {
          const { text, count } = await deps.bridge.invoke('evidence.bibliography', { sessionId, format });
          return { text, count };
        } catch (error) {
          get().receiveNotice(errorNotice(error));
          return null;
        }
      },
      async fetchEvidence(sessionId, id) {
        try {
          const record = await deps.bridge.invoke('evidence.get', { sessionId, id });
          set((s) =>
            s.evidence.sessionId === sessionId && !s.evidence.data.some((r) => r.id === id)
              ? { evidence: { ...s.evidence, data: [...s.evidence.data, record] } }
              : {},
          );
        } catch (error) {
          get().receiveNotice(errorNotice(error));
        }
      },
    };
  };
