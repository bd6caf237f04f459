/**
 * Issue 13, item 2: check-then-open races, writes. While a swapper exchanges `data/`
 * with a symlink to a host folder without pause, the host's write_file (the model's tool
 * and a cell's `host.write_file`) and edit_file run thousands of times; nothing may be
 * created or changed in the host folder. The old code checked the parent's real path,
 * then created the file by name, through the symlink.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { editFileTool, writeFileTool } from '../../src-main/core/capabilities/tools/fsTools';
import { CANARY, CANARY_NAME, namesIn, startRace, type RaceBed } from './support/swapper';
import { runTool, tally } from './support/tools';

const ATTEMPTS = 4_000;
let bed: RaceBed | null = null;
afterEach(async () => {
  await bed?.close();
  bed = null;
});

describe('workspace race: write', () => {
  it('write_file never creates a file in the host folder while a folder is swapped with a symlink', async () => {
    bed = await startRace('data', 'notes.txt');
    const ws = bed.workspace;
    let i = 0;
    const counts = await tally(ATTEMPTS, async () => {
      await runTool(writeFileTool, { path: `data/out-${i++}.txt`, content: 'written by the agent', reason: 'race test' }, ws);
      return 'written';
    });
    expect(namesIn(bed.host)).toEqual([CANARY_NAME, 'notes.txt'].sort());
    expect(fs.readFileSync(path.join(bed.host, 'notes.txt'), 'utf8')).toBe(`${CANARY}\n`);
    expect(counts.written).toBeGreaterThan(0);
    expect(counts.refused).toBeGreaterThan(0);
  });

  it('edit_file never rewrites the host file while a folder is swapped with a symlink', async () => {
    bed = await startRace('data', 'notes.txt', { workspace: 'benign workspace content\n', host: `${CANARY}\nbenign workspace content\n` });
    const ws = bed.workspace;
    let flip = false;
    const counts = await tally(ATTEMPTS, async () => {
      flip = !flip;
      const [from, to] = flip ? ['benign workspace content', 'edited content'] : ['edited content', 'benign workspace content'];
      await runTool(editFileTool, { path: 'data/notes.txt', old_text: from, new_text: to, reason: 'race test' }, ws);
      return 'edited';
    });
    expect(fs.readFileSync(path.join(bed.host, 'notes.txt'), 'utf8')).toBe(`${CANARY}\nbenign workspace content\n`);
    expect(namesIn(bed.host)).toEqual([CANARY_NAME, 'notes.txt'].sort());
    expect(counts.edited).toBeGreaterThan(0);
    expect(counts.refused).toBeGreaterThan(0);
  });
});
