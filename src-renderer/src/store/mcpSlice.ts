import { toErrorBody } from '../api/bridge';
import { createLoader, idle } from './loadable';
import type { McpChange, McpSlice, Slice, StoreDeps } from './types';

/** MCP servers (issue 22): what Settings shows of mcp.json, each server's tools and policies, and the changes made there. */
export const createMcpSlice =
  (deps: StoreDeps): Slice<McpSlice> =>
  (set) => {
    const load = createLoader<McpSlice['mcp']>((change) => set((s) => ({ mcp: change(s.mcp) })));
    const send = (change: McpChange) => {
      switch (change.kind) {
        case 'add':
          return deps.bridge.invoke('mcp.add', { json: change.json });
        case 'remove':
          return deps.bridge.invoke('mcp.remove', { name: change.name });
        case 'connect':
          return deps.bridge.invoke('mcp.connect', { name: change.name });
        case 'policy':
          return deps.bridge.invoke('mcp.policy.set', { server: change.server, tool: change.tool, policy: change.policy });
      }
    };
    return {
      mcp: idle(null),
      loadMcp: () => load(() => deps.bridge.invoke('mcp.list', {})),
      async changeMcp(change) {
        try {
          const view = await send(change);
          // Every change answers the whole view: it replaces the list at once.
          set((s) => ({ mcp: { ...s.mcp, status: 'ready', data: view, error: null } }));
          return null;
        } catch (error) {
          return toErrorBody(error);
        }
      },
    };
  };
