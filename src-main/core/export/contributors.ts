import fs from 'node:fs';
import { strToU8 } from 'fflate';
import type { ProvenanceServices } from '../provenance/services';
import { ARTIFACT_INDEX, artifactIndex, exportedArtifactNames } from './artifactFiles';
import type { ExportContributor } from './exportSession';

const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);

/**
 * What an export adds beyond the ledger extract and the notebook: every artifact
 * version's bytes with its provenance (from the content-addressed store, so the bytes
 * are the ones hashed at save time) under its real file name (see artifactFiles.ts),
 * and the session's evidence with the hashes of the raw responses it came from.
 */
export function exportContributors(provenance: () => Pick<ProvenanceServices, 'artifacts' | 'evidence'>): ExportContributor[] {
  const artifacts: ExportContributor = (sessionId) => {
    const files = new Map<string, Uint8Array>();
    const { artifacts: service } = provenance();
    const exported = exportedArtifactNames(service.list(sessionId).flatMap((artifact) => service.versions(artifact.id)));
    for (const { file, version } of exported) files.set(file, fs.readFileSync(service.blobPath(version.id)));
    if (exported.length) files.set(ARTIFACT_INDEX, json(artifactIndex(exported)));
    return files;
  };
  const evidence: ExportContributor = (sessionId) => {
    const records = provenance().evidence.list(sessionId);
    return new Map(records.length ? [['evidence/evidence.jsonl', strToU8(records.map((r) => JSON.stringify(r)).join('\n') + '\n')]] : []);
  };
  return [artifacts, evidence];
}
