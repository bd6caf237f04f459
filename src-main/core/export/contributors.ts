import type { Core } from '../core';
import type { ExportContributor } from './exportSession';

/**
 * What an export adds beyond the ledger extract and the notebook. Artifacts (all
 * versions with provenance) and evidence (with raw-response hashes) join here when
 * their stores are wired into the core.
 */
export function exportContributors(_core: Core): ExportContributor[] {
  return [];
}
