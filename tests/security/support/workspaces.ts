import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A fresh workspace next to a host folder ("outside") holding a secret. */
export function workspaceWithOutside(): { ws: string; outside: string } {
  const parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-safefs-')));
  made.push(parent);
  const ws = path.join(parent, 'ws');
  const outside = path.join(parent, 'outside');
  fs.mkdirSync(ws);
  fs.mkdirSync(path.join(outside, 'b', 'c'), { recursive: true });
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'HOST SECRET');
  fs.writeFileSync(path.join(outside, 'b', 'c', 'file.txt'), 'HOST SECRET');
  return { ws, outside };
}

/** Every entry under `dir`, relative and sorted. */
export function tree(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).map((p) => p.split(path.sep).join('/')).sort();
}
