import path from 'node:path';

/** The folder under the data root that holds one folder per session (and the kernels' spares). */
export function workspacesRoot(dataDir: string): string {
  return path.join(dataDir, 'workspaces');
}

/** A session's workspace on the host: what its kernels see as /workspace and its tools are confined to. */
export function sessionWorkspace(dataDir: string, sessionId: string): string {
  return path.join(workspacesRoot(dataDir), sessionId);
}
