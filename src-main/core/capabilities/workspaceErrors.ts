/**
 * Confinement of the file tools to the session workspace lives in
 * `core/workspace/safeFs.ts` (every host-side file operation goes through it); the error
 * class is re-exported here for the tools' callers.
 */
export { WorkspaceEscapeError, ProtectedPathError } from '../workspace/safeFs';
