import type Database from 'better-sqlite3';

/**
 * Options for every SQLite connection the core opens. The same node_modules serves the
 * CLI (plain Node) and the app (Electron, another ABI), so under `npm start` the app
 * loads a copy of better-sqlite3's addon built for Electron, named by
 * OPENAI4S_SQLITE_BINDING (set by the Electron glue, built by scripts/ensure-electron.cjs).
 */
export function sqliteOptions(env: NodeJS.ProcessEnv = process.env): Database.Options {
  const binding = env.OPENAI4S_SQLITE_BINDING;
  return binding ? { nativeBinding: binding } : {};
}
