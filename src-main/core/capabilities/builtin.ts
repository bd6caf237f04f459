import type { EgressOptions } from '../security/egress';
import type { Tool } from './define';
import { fileTools } from './tools/fsTools';
import { ToolRegistry } from './registry';
import { searchTools } from './tools/searchTools';
import { webFetchTool, webSearchTool, type WebToolsOptions } from './tools/webTools';

export interface BuiltinToolOptions {
  env: NodeJS.ProcessEnv;
  egress?: EgressOptions;
  /** Tools other parts of the app contribute (science connectors, artifacts: capabilities/tools/provenanceTools). */
  extra?: Tool[];
  /** Each page web_fetch reads becomes evidence. */
  onPage?: WebToolsOptions['onPage'];
  /** Each web_search result becomes evidence. */
  onSearch?: WebToolsOptions['onSearch'];
}

/** The registry with every tool of this build. */
export function createToolRegistry(options: BuiltinToolOptions): ToolRegistry {
  const registry = new ToolRegistry();
  const web = { env: options.env, ...(options.egress ? { egress: options.egress } : {}), ...(options.onPage ? { onPage: options.onPage } : {}), ...(options.onSearch ? { onSearch: options.onSearch } : {}) };
  for (const tool of [...fileTools, ...searchTools, webFetchTool(web), webSearchTool(web), ...(options.extra ?? [])]) registry.register(tool);
  return registry;
}
