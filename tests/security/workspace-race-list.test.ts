/**
 * Issue 13, item 2: check-then-open races, listings and walks. While a swapper exchanges
 * `data/` with a symlink to a host folder without pause, list_dir, glob_files and
 * content_search run thousands of times; none may show a name or a line of the host
 * folder. The old code checked the real path and then listed (or walked) by name.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { listDirTool } from '../../src-main/core/capabilities/tools/fsTools';
import { contentSearchTool, globFilesTool } from '../../src-main/core/capabilities/tools/searchTools';
import { CANARY_NAME, startRace, type RaceBed } from './support/swapper';
import { runTool, tally } from './support/tools';

let bed: RaceBed | null = null;
afterEach(async () => {
  await bed?.close();
  bed = null;
});

const leaked = (text: string) => text.includes(CANARY_NAME) || text.includes('HOST-CANARY');

describe('workspace race: list', () => {
  it('list_dir never lists the host folder while a folder is swapped with a symlink', async () => {
    bed = await startRace();
    const ws = bed.workspace;
    const counts = await tally(5_000, async () => (leaked((await runTool(listDirTool, { path: 'data' }, ws)).text) ? 'HOST FOLDER LISTED' : 'workspace folder'));
    expect(counts['HOST FOLDER LISTED'] ?? 0).toBe(0);
    expect(counts['workspace folder']).toBeGreaterThan(0);
    expect(counts.refused).toBeGreaterThan(0);
  });

  it('glob_files and content_search never walk into the host folder', async () => {
    bed = await startRace();
    const ws = bed.workspace;
    const globs = await tally(1_500, async () => (leaked((await runTool(globFilesTool, { pattern: '**/*.txt' }, ws)).text) ? 'HOST FOLDER WALKED' : 'workspace only'));
    const greps = await tally(1_500, async () =>
      leaked((await runTool(contentSearchTool, { pattern: 'CANARY|benign', path: 'data' }, ws)).text) ? 'HOST FILE SEARCHED' : 'workspace only',
    );
    expect(globs['HOST FOLDER WALKED'] ?? 0).toBe(0);
    expect(greps['HOST FILE SEARCHED'] ?? 0).toBe(0);
    expect(globs['workspace only']).toBeGreaterThan(0);
    expect(greps['workspace only']).toBeGreaterThan(0);
  });
});
