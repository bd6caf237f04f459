import { artifactCapabilities } from './artifactTools';
import type { ProvenanceServices } from '../../provenance/services';
import { defineTool, type Tool, type ToolContext } from '../define';
import { scienceCapabilities, type CapabilityContext } from './scienceTools';

/**
 * science_list_dbs, science_search, save_artifact and list_artifacts as registry tools
 * (the names the registry reserves in HOOK_TOOL_NAMES). The services are opened lazily, on
 * the first call, so a run that never retrieves opens no store.
 *
 * A call from a cell carries the calling cell (`ctx.cell`, set by the dispatcher), so an
 * artifact saved from a cell names that cell, its generation and its environment.
 */
export function provenanceTools(services: () => ProvenanceServices): Tool[] {
  const s = scienceCapabilities(() => services().science);
  const a = artifactCapabilities(() => services().artifacts);
  const ctxOf = (ctx: ToolContext): CapabilityContext => ctx;
  return [
    defineTool({ ...s.science_list_dbs, execute: () => s.science_list_dbs.execute() }),
    defineTool({ ...s.science_search, execute: (args, ctx) => s.science_search.execute(args, ctxOf(ctx)) }),
    defineTool({ ...a.save_artifact, execute: (args, ctx) => a.save_artifact.execute(args, ctxOf(ctx)) }),
    defineTool({ ...a.list_artifacts, execute: (args, ctx) => a.list_artifacts.execute(args, ctxOf(ctx)) }),
  ];
}
