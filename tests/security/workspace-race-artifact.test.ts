/**
 * Issue 13, item 2: check-then-open races, artifact saves. While a swapper exchanges a
 * workspace folder with a symlink to a host folder without pause, save_artifact (the
 * model's tool and a cell's `host.save_artifact`) and the capture of a cell's figures
 * run thousands of times; no saved artifact may hold the host file. The old code took
 * the real path, checked it, then read the path by name again.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { artifactCapabilities } from '../../src-main/core/capabilities/tools/artifactTools';
import { captureFigures } from '../../src-main/core/provenance/figures';
import type { KernelCellResult } from '../../src-preload/contract/kernel';
import { memoryArtifacts } from '../core/provenance/helpers';
import { CANARY, startRace, type RaceBed } from './support/swapper';
import { tally } from './support/tools';

const ATTEMPTS = 3_000;
const CANARY_SHA = createHash('sha256').update(`${CANARY}\n`).digest('hex');
let bed: RaceBed | null = null;
const dataDirs: string[] = [];
afterEach(async () => {
  await bed?.close();
  bed = null;
  for (const d of dataDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function artifacts() {
  const made = memoryArtifacts();
  dataDirs.push(made.dataDir);
  return made.service;
}

describe('workspace race: artifact save', () => {
  it('save_artifact never saves the host file while a folder is swapped with a symlink', async () => {
    bed = await startRace('results', 'table.csv');
    const service = artifacts();
    const caps = artifactCapabilities(() => service);
    const ctx = { sessionId: 's1', runId: 'r1', workspace: bed.workspace, signal: new AbortController().signal, origin: 'cell' as const };
    const counts = await tally(ATTEMPTS, async () => {
      const res = await caps.save_artifact.execute({ path: 'results/table.csv' }, ctx);
      return (JSON.parse(res.text) as { sha256: string }).sha256 === CANARY_SHA ? 'HOST FILE SAVED' : 'workspace file';
    });
    expect(counts['HOST FILE SAVED'] ?? 0).toBe(0);
    expect(counts['workspace file']).toBeGreaterThan(0);
    expect(counts.refused).toBeGreaterThan(0);
  });

  it("the capture of a cell's figures never saves the host file either", async () => {
    bed = await startRace('figures', 'abcd1234-cell1-1.png', { workspace: 'PNG bytes of the figure', host: `${CANARY}\n` });
    const service = artifacts();
    const cell: KernelCellResult = {
      sessionId: 's1',
      language: 'python',
      generation: 'abcd1234-0000-0000-0000-000000000000',
      cellId: 'cell-1',
      cellNumber: 1,
      status: 'ok',
      stdout: '',
      stderr: '',
      displays: [{ data: { 'text/plain': '<figure 1>' }, path: 'figures/abcd1234-cell1-1.png', bytes: 23 }],
      truncated: false,
      sandbox: { state: 'off' },
    };
    const ws = bed.workspace;
    const counts = await tally(ATTEMPTS, async () => {
      const { saved } = await captureFigures(service, cell, ws);
      if (!saved.length) return 'refused';
      return saved[0]!.sha256 === CANARY_SHA ? 'HOST FILE SAVED' : 'workspace file';
    });
    expect(counts['HOST FILE SAVED'] ?? 0).toBe(0);
    expect(counts['workspace file']).toBeGreaterThan(0);
    expect(counts.refused).toBeGreaterThan(0);
  });
});
