import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { strToU8 } from 'fflate';
import type { ActionGroupRecord } from '../ledger/actionsRepo';
import { appRoot } from '../config/appPaths';
import type { ArtifactIndexRow } from './artifactFiles';
import { listWorkspaceDir, type WorkspaceEntry } from '../workspace/safeFs';
import { unsafeNameReason } from './entryNames';

/**
 * What an export carries so its notebook runs outside the app, offline (issue 25):
 *
 * - `reproduce/openai4s_host.py`: the `host` of the notebook (resources/reproduce), which
 *   answers each host call from the recorded answers below;
 * - `reproduce/host_calls.jsonl`: every host call a cell made, with its arguments and the
 *   answer the app gave (from the action ledger, in order);
 * - `reproduce/inputs.json` (+ `reproduce/inputs/…`): the files the cells found in their
 *   workspace without making them (science downloads, files the agent wrote, uploads),
 *   pointing at identical bytes already in the package where there are some.
 */

export const REPRODUCE_FOLDER = 'reproduce';
export const HOST_MODULE_FILE = `${REPRODUCE_FOLDER}/openai4s_host.py`;
export const HOST_CALLS_FILE = `${REPRODUCE_FOLDER}/host_calls.jsonl`;
export const INPUTS_FILE = `${REPRODUCE_FOLDER}/inputs.json`;
const INPUT_BYTES_FOLDER = `${REPRODUCE_FOLDER}/inputs`;
/** Uploads larger than this stay out of the package (named in inputs.json as missing). */
const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;

/** The first code cell of an exported notebook: installs the recorded host. */
export const NOTEBOOK_SETUP = [
  '# OpenAI4S: `host` answers this notebook\'s host calls (science searches, artifacts, files)',
  '# from the records in this package, offline. Run the notebook from the unzipped package folder;',
  '# the cells then run in its workspace/ folder, as they did in the session\'s workspace.',
  'import os, sys',
  'openai4s_package = globals().get("openai4s_package") or os.path.abspath(".")',
  'sys.path.insert(0, os.path.join(openai4s_package, "reproduce"))',
  'import openai4s_host',
  'host = openai4s_host.Host(openai4s_package)',
  'HostError = openai4s_host.HostError',
].join('\n');

/** One host call of a cell, as the package records it. */
export interface RecordedHostCall {
  /** The capability that answered (`science_search`, `save_artifact`, …). */
  method: string;
  cellId: string | null;
  generation: string | null;
  arguments: unknown;
  status: string;
  text: string;
  output?: unknown;
}

/** A file the cells found in their workspace; `file` is where its bytes are in the package. */
export interface ReproduceInput {
  path: string;
  sha256: string | null;
  bytes: number | null;
  /** What put it there: `science_search pdb download 4INS`, `write_file`, `upload`. */
  origin: string;
  file?: string;
  /** Why its bytes are not in the package. */
  missing?: string;
}

interface CallResult {
  origin?: string;
  status?: string;
  text?: string;
  output?: unknown;
  cellId?: string | null;
  generation?: string | null;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Every host call made by a cell, in the order the session made them. */
export function recordedHostCalls(groups: readonly ActionGroupRecord[]): RecordedHostCall[] {
  return groups.flatMap((group) =>
    group.events.flatMap((event) => {
      const result = event.result as CallResult | null;
      if (result?.origin !== 'cell') return [];
      return [
        {
          method: event.name,
          cellId: result.cellId ?? null,
          generation: result.generation ?? null,
          arguments: event.arguments ?? {},
          status: result.status ?? (event.isError ? 'error' : 'ok'),
          text: result.text ?? '',
          ...(result.output === undefined ? {} : { output: result.output }),
        },
      ];
    }),
  );
}

/** Files the agent's own tool calls put in the workspace: downloads (path + sha256 records) and write_file. */
function toolInputs(groups: readonly ActionGroupRecord[]): { path: string; sha256: string | null; origin: string; content?: Uint8Array }[] {
  const found: { path: string; sha256: string | null; origin: string; content?: Uint8Array }[] = [];
  for (const group of groups) {
    for (const event of group.events) {
      const result = event.result as CallResult | null;
      if (!result || result.origin === 'cell' || result.status !== 'ok') continue;
      const args = (event.arguments ?? {}) as Record<string, unknown>;
      if (event.name === 'write_file' && typeof args.path === 'string' && typeof args.content === 'string') {
        const content = strToU8(args.content);
        found.push({ path: args.path, sha256: sha256(content), origin: 'write_file', content });
        continue;
      }
      const records = (result.output as { records?: unknown } | undefined)?.records;
      if (!Array.isArray(records)) continue;
      for (const record of records as { id?: string; attributes?: Record<string, unknown> }[]) {
        const attributes = record?.attributes;
        if (typeof attributes?.path !== 'string' || typeof attributes.sha256 !== 'string') continue;
        found.push({ path: attributes.path, sha256: attributes.sha256, origin: [event.name, args.database, args.operation, record.id].filter(Boolean).join(' ') });
      }
    }
  }
  return found;
}

/** The user's uploads (workspace `uploads/`), regular files only, as they are now (listed without following a symlink). */
function uploads(workspace: string): { path: string; origin: string }[] {
  let entries: WorkspaceEntry[];
  try {
    entries = listWorkspaceDir(workspace, 'uploads').entries;
  } catch {
    return []; // no uploads folder (or not a folder of the workspace)
  }
  return entries.filter((e) => e.kind === 'file').map((e) => ({ path: `uploads/${e.name}`, origin: 'upload' }));
}

/**
 * The `reproduce/` files of an export. `readWorkspace` reads a workspace file as it is now
 * (null when absent or refused); `artifacts` are the package's own versions, whose bytes
 * are reused when an input is identical to one of them.
 */
export function reproduceFiles(
  groups: readonly ActionGroupRecord[],
  artifacts: readonly ArtifactIndexRow[],
  workspace: string,
  readWorkspace: (rel: string) => Uint8Array | null,
  /** Host calls recorded elsewhere than the action ledger: the user's Notebook cells'. */
  moreCalls: readonly RecordedHostCall[] = [],
  hostModule: Uint8Array = fs.readFileSync(path.join(appRoot(), 'resources', 'reproduce', 'openai4s_host.py')),
): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  files.set(HOST_MODULE_FILE, hostModule);
  const calls = [...recordedHostCalls(groups), ...moreCalls];
  files.set(HOST_CALLS_FILE, strToU8(calls.map((c) => JSON.stringify(c)).join('\n') + (calls.length ? '\n' : '')));
  const byHash = new Map(artifacts.map((a) => [a.sha256, a.file]));
  // The latest of each path wins: that is what the workspace held for the cells after it.
  const wanted = new Map<string, { path: string; sha256: string | null; origin: string; content?: Uint8Array }>();
  for (const input of [...toolInputs(groups), ...uploads(workspace).map((u) => ({ ...u, sha256: null }))]) wanted.set(input.path, input);
  const inputs: ReproduceInput[] = [];
  for (const want of wanted.values()) {
    const inPackage = want.sha256 ? byHash.get(want.sha256) : undefined;
    const entry: ReproduceInput = { path: want.path, sha256: want.sha256, bytes: null, origin: want.origin };
    const target = `${INPUT_BYTES_FOLDER}/${want.path}`;
    const unsafe = unsafeNameReason(want.path) ?? unsafeNameReason(target);
    if (unsafe) {
      inputs.push({ ...entry, missing: `not exported: ${unsafe}` });
      continue;
    }
    if (inPackage) {
      inputs.push({ ...entry, bytes: artifacts.find((a) => a.file === inPackage)?.size ?? null, file: inPackage });
      continue;
    }
    const bytes = want.content ?? readWorkspace(want.path);
    if (!bytes) inputs.push({ ...entry, missing: 'the file is no longer in the session workspace' });
    else if (want.sha256 && sha256(bytes) !== want.sha256) inputs.push({ ...entry, missing: `the workspace file changed since (now sha256 ${sha256(bytes)})` });
    else if (bytes.byteLength > MAX_UPLOAD_BYTES) inputs.push({ ...entry, bytes: bytes.byteLength, missing: `larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB` });
    else {
      files.set(target, bytes);
      inputs.push({ ...entry, sha256: sha256(bytes), bytes: bytes.byteLength, file: target });
    }
  }
  files.set(INPUTS_FILE, strToU8(`${JSON.stringify(inputs, null, 2)}\n`));
  return files;
}
