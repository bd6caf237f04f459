import type { EvidenceLookupPort } from '../engine/ports';
import { sessionEvidenceLookup } from './evidenceLookup';
import type { ProvenanceServices } from '../provenance/services';

/** What a cited answer of this session may point at: its evidence and its artifact versions. */
export function sessionLookup(provenance: () => ProvenanceServices, sessionId: string): EvidenceLookupPort {
  return {
    missing: (ids) => sessionEvidenceLookup(provenance().evidence, sessionId).missing(ids),
    missingArtifacts: (ids) =>
      ids.filter((id) => {
        try {
          return provenance().artifacts.version(id).sessionId !== sessionId;
        } catch {
          return true;
        }
      }),
  };
}
