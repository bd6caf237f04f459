import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { ToolContext } from '../../../src-main/core/capabilities/define';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A fresh workspace inside a fresh parent (so "outside the workspace" exists too). */
export function tempWorkspace(): { workspace: string; outside: string } {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-tools-'));
  dirs.push(parent);
  const workspace = path.join(parent, 'ws');
  const outside = path.join(parent, 'outside');
  fs.mkdirSync(workspace);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'TOP SECRET');
  return { workspace, outside };
}

export function toolCtx(workspace: string, origin: 'tool' | 'cell' = 'tool'): ToolContext {
  return { sessionId: 's1', runId: null, workspace, signal: new AbortController().signal, origin };
}
