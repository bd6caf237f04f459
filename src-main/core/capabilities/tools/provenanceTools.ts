import { artifactCapabilities } from './artifactTools';
import type { ProvenanceServices } from '../../provenance/services';
import { defineTool, type Tool } from '../define';
import { scienceCapabilities } from './scienceTools';

/**
 * science_list_dbs, science_search, save_artifact and list_artifacts as registry tools. The
 * services are opened lazily, on the first call, so a run that never retrieves opens no store.
 *
 * A call from a cell carries the calling cell (`ctx.cell`, set by the dispatcher), so an
 * artifact saved from a cell names that cell, its generation and its environment.
 */
export function provenanceTools(services: () => ProvenanceServices): Tool[] {
  const s = scienceCapabilities(() => services().science);
  const a = artifactCapabilities(() => services().artifacts);
  return [defineTool(s.science_list_dbs), defineTool(s.science_search), defineTool(a.save_artifact), defineTool(a.list_artifacts)];
}
