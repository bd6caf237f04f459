import { afterAll, describe, expect, it } from 'vitest';
import type { ArtifactVersion } from '../../../src-preload/contract/artifacts';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import type { ProvenanceServices } from '../../../src-main/core/provenance/services';
import { sessionReport } from '../../../src-main/core/export/report';
import { kernelPort } from '../../../src-main/core/runner/kernelCells';
import { memoryArtifacts, saveArtifactHost } from '../provenance/helpers';
import { makeSupervisor } from '../kernel/helpers';

/**
 * No silent output (issue 14, item 3): a figure drawn and a file saved by a cell that then
 * raised are outputs of a failed cell, and say so to the model, in the stream and in the export.
 */
const { service, evidence } = memoryArtifacts();
const host = saveArtifactHost(service);
const { sup } = makeSupervisor({ host });
afterAll(() => sup.close());
const port = kernelPort(sup, { provenance: () => ({ evidence, artifacts: service }) as unknown as ProvenanceServices });

async function run(sessionId: string, code: string) {
  const chunks: StreamChunk[] = [];
  const outcome = await port.executeCell('python', code, { sessionId, runId: 'r1', signal: new AbortController().signal, emit: (c) => chunks.push(c) });
  const artifactParts = chunks.filter((c) => c.type === 'data-artifact').map((c) => (c as { data: ArtifactVersion }).data);
  return { outcome, artifactParts };
}

const DRAW_SAVE = [
  'import matplotlib',
  'matplotlib.use("Agg")',
  'import matplotlib.pyplot as plt',
  'plt.plot([1, 2, 3], [3, 1, 2])',
  'open("partial.csv", "w").write("dose,response\\n1,0.2\\n")',
  'host.save_artifact(path="partial.csv")',
].join('\n');

describe('outputs of a failed cell never look like results', () => {
  it('a figure and a saved file of a cell that then raised carry the failure, and the model is told plainly', async () => {
    const { outcome, artifactParts } = await run('failed', `${DRAW_SAVE}\nraise ValueError("the fit did not converge")`);
    expect(outcome.ok).toBe(false);
    expect(outcome.summary).toContain('THIS CELL FAILED (error: ValueError: the fit did not converge)');
    expect(outcome.summary).not.toMatch(/saved as artifact version/);
    const produced = service.list('failed').flatMap((a) => service.versions(a.id));
    expect(produced.map((v) => v.path).sort()).toEqual([expect.stringMatching(/^figures\/.+\.pdf$/), expect.stringMatching(/^figures\/.+\.png$/), expect.stringMatching(/^figures\/.+\.svg$/), 'partial.csv']);
    for (const v of produced) {
      expect(v.cellOutcome).toEqual({ status: 'error', error: 'ValueError: the fit did not converge' });
      expect(outcome.summary).toContain(`${v.path} (version ${v.id})`);
    }
    // The stream carries each of them with the outcome (the mid-cell save is re-sent with it).
    for (const v of produced) {
      expect(artifactParts.filter((p) => p.id === v.id).at(-1)?.cellOutcome).toEqual({ status: 'error', error: 'ValueError: the fit did not converge' });
    }
    // The export's README names them as outputs of a failed cell.
    const rows = produced.map((v) => ({ file: `artifacts/${v.path}`, ...v }));
    const report = sessionReport({ id: 'failed', title: 't', createdAt: '2026-01-01T00:00:00Z' } as never, [], [], [], rows);
    expect(report).toContain('## Outputs of failed cells');
    expect(report).toContain('**from a failed cell**: error, ValueError: the fit did not converge');
  }, 60_000);

  it('the same outputs of a cell that ends ok are ordinary results', async () => {
    const { outcome, artifactParts } = await run('fine', DRAW_SAVE);
    expect(outcome.ok).toBe(true);
    expect(outcome.summary).not.toContain('FAILED');
    expect(outcome.summary).toMatch(/Figure figures\/.+\.png saved as artifact version av_/);
    const produced = service.list('fine').flatMap((a) => service.versions(a.id));
    expect(produced).toHaveLength(4); // the figure's PNG, SVG and PDF, and the saved file
    for (const v of produced) expect(v.cellOutcome).toEqual({ status: 'ok' });
    expect(artifactParts.every((p) => p.cellOutcome?.status !== 'error')).toBe(true);
    const report = sessionReport({ id: 'fine', title: 't', createdAt: '2026-01-01T00:00:00Z' } as never, [], [], [], produced.map((v) => ({ file: v.path, ...v })));
    expect(report).not.toContain('failed cell');
  }, 60_000);
});
