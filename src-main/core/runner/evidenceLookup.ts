import type { EvidenceLookupPort } from '../engine/ports';
import type { EvidenceStore } from '../records/evidenceStore';

/** The engine's view of one session's evidence: which cited ids do not exist. */
export function sessionEvidenceLookup(store: EvidenceStore, sessionId: string): EvidenceLookupPort {
  return { missing: (ids) => store.missing(sessionId, ids) };
}
