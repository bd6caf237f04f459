import fs from 'node:fs';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import type { Core } from '../core';
import { APP_VERSION } from '../version';
import { MANIFEST_FILE, buildManifest, type Manifest } from './manifest';
import { sessionNotebook } from './notebook';
import { sessionReport } from './report';

/** More files for an export (artifacts, evidence): path inside the zip -> bytes. */
export type ExportContributor = (sessionId: string) => Map<string, Uint8Array>;

const jsonl = (rows: readonly unknown[]) => strToU8(rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : ''));
const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);

/** Reads a workspace-relative file, confined to the workspace; null when absent. */
function workspaceReader(root: string) {
  const base = path.resolve(root);
  return (rel: string): Uint8Array | null => {
    const file = path.resolve(base, rel.replace(/^\/workspace\//, ''));
    if (file !== base && !file.startsWith(base + path.sep)) return null;
    try {
      return fs.readFileSync(file);
    } catch {
      return null;
    }
  };
}

/**
 * Writes a session as a self-checking zip: the ledger extract (stream and action
 * events), the notebook of its cells, a README report of the answers with their
 * citations, whatever the contributors add (artifacts, evidence), and a manifest with
 * every file's sha256 and one digest over them all.
 */
export function exportSession(core: Core, sessionId: string, outFile: string, contributors: readonly ExportContributor[] = []): Manifest {
  const { ledger } = core;
  const detail = ledger.detail(sessionId);
  const history = ledger.history(sessionId);
  const files = new Map<string, Uint8Array>();
  files.set('session.json', json({ ...detail.session, lastSeq: detail.lastSeq }));
  files.set('ledger/runs.json', json(detail.runs));
  files.set('ledger/stream_events.jsonl', jsonl(ledger.events.readFrom(sessionId)));
  files.set('ledger/action_events.jsonl', jsonl(detail.runs.flatMap((r) => ledger.actions.listByRun(r.id))));
  files.set('ledger/kernel_generations.json', json(ledger.kernels.listBySession(sessionId)));
  const readWorkspace = workspaceReader(core.kernels.workspaceFor(sessionId));
  files.set('notebook.ipynb', json(sessionNotebook(detail.session.title, history.messages, readWorkspace)));
  for (const contribute of contributors) for (const [p, bytes] of contribute(sessionId)) files.set(p, bytes);
  files.set('README.md', strToU8(sessionReport(detail.session, detail.runs, history.messages, [...files.keys(), 'README.md', MANIFEST_FILE].sort())));
  const manifest = buildManifest(files, {
    createdAt: new Date().toISOString(),
    app: { name: 'OpenAI4S', version: APP_VERSION },
    session: { id: detail.session.id, title: detail.session.title },
  });
  const zip = zipSync({ ...Object.fromEntries(files), [MANIFEST_FILE]: json(manifest) }, { level: 6, mtime: new Date('1980-01-02T00:00:00Z') });
  fs.mkdirSync(path.dirname(path.resolve(outFile)), { recursive: true });
  const tmp = `${outFile}.partial`;
  fs.writeFileSync(tmp, zip);
  fs.renameSync(tmp, outFile);
  return manifest;
}
