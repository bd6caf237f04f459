/**
 * Issue 13, item 2: check-then-open races in workspace confinement, reads. While a
 * swapper exchanges `data/` with a symlink to a host folder without pause, the host's
 * read_text_file (the model's tool and a cell's `host.read_file`) runs thousands of
 * times and must never return the host file. The old code checked the real path, then
 * reopened the path by name, and returned the host file on a large share of attempts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readTextFileTool } from '../../src-main/core/capabilities/tools/fsTools';
import { CANARY, startRace, type RaceBed } from './support/swapper';
import { runTool, tally } from './support/tools';

const ATTEMPTS = 5_000;
let bed: RaceBed | null = null;
afterEach(async () => {
  await bed?.close();
  bed = null;
});

describe('workspace race: read', () => {
  it('read_text_file never returns a host file while a folder is swapped with a symlink', async () => {
    bed = await startRace('data', 'notes.txt');
    const ws = bed.workspace;
    const counts = await tally(ATTEMPTS, async () => ((await runTool(readTextFileTool, { path: 'data/notes.txt' }, ws)).text.includes(CANARY) ? 'HOST FILE READ' : 'workspace file'));
    expect(counts['HOST FILE READ'] ?? 0).toBe(0);
    // The race was live: both states of the swapped folder were met.
    expect(counts['workspace file']).toBeGreaterThan(0);
    expect(counts.refused).toBeGreaterThan(0);
  });

  it('the streamed line range of a file over 4 MB never comes from a host file either', async () => {
    const filler = `${'x'.repeat(99)}\n`.repeat(45_000); // 4.5 MB: read_text_file streams a range
    bed = await startRace('big', 'table.tsv', { workspace: `benign first line\n${filler}`, host: `${CANARY}\n${filler}` });
    const ws = bed.workspace;
    const counts = await tally(3_000, async () =>
      (await runTool(readTextFileTool, { path: 'big/table.tsv', start_line: 1, max_lines: 1 }, ws)).text.includes(CANARY) ? 'HOST FILE READ' : 'workspace file',
    );
    expect(counts['HOST FILE READ'] ?? 0).toBe(0);
    expect(counts['workspace file']).toBeGreaterThan(0);
    expect(counts.refused).toBeGreaterThan(0);
  });
});
