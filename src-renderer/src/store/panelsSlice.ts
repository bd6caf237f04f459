import type { ArtifactBytes, ArtifactSummary, EvidenceRecord } from '../../../src-preload/contract';
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
  (set) => {
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
    };
  };
