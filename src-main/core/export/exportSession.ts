import { strToU8, zipSync } from 'fflate';
import type { Ledger } from '../ledger/ledger';
import { APP_VERSION } from '../config/version';
import { archiveFiles } from './archiveFiles';
import { readArtifactIndex } from './artifactFiles';
import { generationLocks } from './environmentLock';
import { collisionKey, unsafeNameReason } from './entryNames';
import { MANIFEST_FILE, buildManifest, type Manifest } from './manifest';
import { sessionNotebook } from './notebook';
import { HOST_CALLS_FILE, NOTEBOOK_SETUP, reproduceFiles } from './reproducePackage';
import { sessionReport, skillUses } from './report';
import { scrubExportFiles } from './scrubFiles';
import { readWorkspaceFile } from '../workspace/safeFs';
import { writeFileAtomic } from '../shared/writeFileAtomic';
import { installationSigningKey } from './signing';
import { runTree } from './runTree';

/** What an export reads: the session's ledger rows, its workspace (figures) and the data root (signing key). */
export interface ExportSources {
  readonly ledger: Pick<Ledger, 'detail' | 'history' | 'events' | 'actions' | 'kernels' | 'environments' | 'memory' | 'runs'> & Partial<Pick<Ledger, 'safety' | 'userCells' | 'archive'>>;
  readonly kernels: { workspaceFor(sessionId: string): string };
  readonly config: { readonly dataDir: string };
}

/** More files for an export (artifacts, evidence): path inside the zip -> bytes. */
export type ExportContributor = (sessionId: string) => Map<string, Uint8Array>;

const jsonl = (rows: readonly unknown[]) => strToU8(rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : ''));
const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);

/** When the run of each message started: its own run (assistant), else the next message's (the user's question). */
function messageStarts(messages: readonly { id: string }[], runs: readonly { id: string; startedAt: string | null; createdAt: string }[]): (string | null)[] {
  const startOf = new Map(runs.map((r) => [r.id, r.startedAt ?? r.createdAt]));
  const starts: (string | null)[] = messages.map((m) => startOf.get(m.id) ?? null);
  for (let i = starts.length - 2; i >= 0; i--) starts[i] ??= starts[i + 1] ?? null;
  return starts;
}

/** Reads a workspace-relative file through safeFs (no symlink followed); null when absent or refused. */
function workspaceReader(root: string) {
  return (rel: string): Uint8Array | null => {
    try {
      return readWorkspaceFile(root, rel.replace(/^\/workspace\//, '')).bytes;
    } catch {
      // Absent, or refused by safeFs (a link, outside the workspace): the notebook keeps the figure's other forms, without its image.
      return null;
    }
  };
}

/**
 * Writes a session as a self-checking zip: the ledger extract (stream and action
 * events), the notebook of its cells, a README report of the answers with their
 * citations, whatever the contributors add (artifacts, evidence), and a manifest with
 * every file's sha256 and one digest over all of it, signed with the installation's key
 * (created in the data root on first export) unless `sign` is false.
 */
export function exportSession(
  sources: ExportSources,
  sessionId: string,
  outFile: string,
  contributors: readonly ExportContributor[] = [],
  options: { sign?: boolean } = {},
): Manifest {
  const { ledger } = sources;
  const detail = ledger.detail(sessionId);
  const history = ledger.history(sessionId);
  const files = new Map<string, Uint8Array>();
  files.set('session.json', json({ ...detail.session, lastSeq: detail.lastSeq }));
  files.set('ledger/runs.json', json(detail.runs));
  // Child agents' runs (delegation) under the runs that started them; their actions join the extract.
  const childRuns = ledger.runs.listChildren(sessionId);
  files.set('ledger/run_tree.json', json(runTree(detail.runs, childRuns)));
  files.set('ledger/stream_events.jsonl', jsonl(ledger.events.readFrom(sessionId)));
  const actionRuns = [...detail.runs, ...childRuns].map((r) => ({ runId: r.id, groups: ledger.actions.listByRun(r.id) }));
  files.set('ledger/action_events.jsonl', jsonl(actionRuns.flatMap((r) => r.groups)));
  // Long sessions: the compactions' handoffs and the archived results recall reads (issue 19).
  for (const [p, bytes] of archiveFiles(ledger, sources.config.dataDir, sessionId)) files.set(p, bytes);
  // Every biosecurity screening and pre-execution cell review of the session, with verdicts and reasons (issue 27).
  if (ledger.safety) files.set('ledger/safety_checks.jsonl', jsonl(ledger.safety.listBySession(sessionId)));
  // Each generation with its environment lock: the environment, interpreter and versions of what its cells imported.
  const generations = ledger.kernels.listBySession(sessionId);
  const locks = new Map(generationLocks(generations, ledger.environments.locksBySession(sessionId), actionRuns.flatMap((r) => r.groups)).map((l) => [l.generation, l]));
  files.set('ledger/kernel_generations.json', json(generations.map((g) => ({ ...g, environmentLock: locks.get(g.id) ?? null }))));
  // The session's own memories (issue 19) with their whole history (edits and forgets are events), and its plan.
  // Data-root memories belong to the installation, not to this session: they stay out.
  const memoryEvents = ledger.memory.sessionEvents(sessionId);
  if (memoryEvents.length) files.set('ledger/memory_events.jsonl', jsonl(memoryEvents));
  const plan = ledger.memory.plan(sessionId);
  if (plan.length) files.set('ledger/plan.json', json(plan));
  // The cells the user ran in the Notebook tab, every version (issue 25).
  const userCells = ledger.userCells?.list(sessionId) ?? [];
  if (userCells.length) files.set('ledger/user_cells.jsonl', jsonl(userCells));
  const generated = new Set([...files.keys(), 'notebook.ipynb', 'README.md', HOST_CALLS_FILE]);
  const contributed = new Map<string, Uint8Array>();
  for (const contribute of contributors) for (const [p, bytes] of contribute(sessionId)) contributed.set(p, bytes);
  // The notebook and the report link each artifact version to its file in this zip.
  const exported = readArtifactIndex(contributed);
  const workspace = sources.kernels.workspaceFor(sessionId);
  const readWorkspace = workspaceReader(workspace);
  // What runs the notebook outside the app: the recorded host, its answers and the workspace inputs.
  const userCalls = userCells.flatMap((c) => c.hostCalls.map((h) => ({ ...h, cellId: c.result.cellId, generation: c.generation })));
  for (const [p, bytes] of reproduceFiles(actionRuns.flatMap((r) => r.groups), exported, workspace, readWorkspace, userCalls)) contributed.set(p, bytes);
  const notebookFiles = {
    artifacts: exported,
    read: (file: string) => contributed.get(file) ?? null,
    setup: NOTEBOOK_SETUP,
    userCells: userCells.map((c) => ({ cell: { ...c.result, code: c.code }, finishedAt: c.finishedAt, meta: { user: true, cellKey: c.cellKey, version: c.version } })),
    messageStarts: messageStarts(history.messages, detail.runs),
  };
  files.set('notebook.ipynb', json(sessionNotebook(detail.session.title, history.messages, readWorkspace, notebookFiles)));
  for (const [p, bytes] of contributed) files.set(p, bytes);
  const skills = skillUses(actionRuns.map(({ runId, groups }) => ({ runId, results: groups.flatMap((g) => g.events.map((e) => e.result)) })));
  files.set('README.md', strToU8(sessionReport(detail.session, detail.runs, history.messages, [...files.keys(), 'README.md', MANIFEST_FILE].sort(), exported, skills)));
  // Before hashing: no key leaves in an export, even from rows stored before scrubbing existed.
  scrubExportFiles(files, generated);
  // Never write a package that `verify` would refuse (unsafe or case-colliding names).
  const keys = new Map<string, string>();
  for (const name of files.keys()) {
    const clash = keys.get(collisionKey(name));
    const unsafe = unsafeNameReason(name) ?? (clash ? `it is the same file as ${JSON.stringify(clash)} on a case-insensitive disk` : null);
    if (unsafe) throw new Error(`Cannot export ${JSON.stringify(name)}: ${unsafe}. Rename the artifact and export again.`);
    keys.set(collisionKey(name), name);
  }
  const manifest = buildManifest(
    files,
    {
      createdAt: new Date().toISOString(),
      app: { name: 'OpenAI4S', version: APP_VERSION },
      session: { id: detail.session.id, title: detail.session.title, createdAt: detail.session.createdAt },
    },
    options.sign === false ? null : installationSigningKey(sources.config.dataDir),
  );
  const zip = zipSync({ ...Object.fromEntries(files), [MANIFEST_FILE]: json(manifest) }, { level: 6, mtime: new Date('1980-01-02T00:00:00Z') });
  // Whole or not at all, with no `.partial` left behind and a one-line error when it fails.
  writeFileAtomic(outFile, zip);
  return manifest;
}
