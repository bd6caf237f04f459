import { AppError } from '../../../src-preload/contract/errors';
import type { EvidenceLookupPort } from '../engine/ports';
import { sessionEvidenceLookup } from './evidenceLookup';
import type { ProvenanceServices } from '../provenance/services';

/** What a cited answer of this session may point at: its evidence and its artifact versions. */
export function sessionLookup(provenance: () => ProvenanceServices, sessionId: string): EvidenceLookupPort {
  return {
    missing: (ids) => sessionEvidenceLookup(provenance().evidence, sessionId).missing(ids),
    records: (ids) => ids.flatMap((id) => provenance().evidence.get(sessionId, id) ?? []),
    missingArtifacts: (ids) =>
      ids.filter((id) => {
        try {
          return provenance().artifacts.version(id).sessionId !== sessionId;
        } catch (error) {
          // No such version: the citation names something that does not exist.
          if (error instanceof AppError && error.code === 'not_found') return true;
          throw error;
        }
      }),
  };
}
