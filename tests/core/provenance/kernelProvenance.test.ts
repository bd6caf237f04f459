import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureFigures } from '../../../src-main/core/provenance/figures';
import { recordCellEvidence } from '../../../src-main/core/provenance/evidenceRecords';
import { makeSupervisor } from '../kernel/helpers';
import { memoryArtifacts, saveArtifactHost } from './helpers';

const { service, evidence } = memoryArtifacts();
const host = saveArtifactHost(service);
const { sup } = makeSupervisor({ host });
afterAll(() => sup.close());

describe('artifact provenance from real kernel cells', () => {
  it('an artifact written by an R cell names R and its packages, never Python\'s', async () => {
    const r = await sup.execute('prov', 'r', 'writeLines(c("a,b", "1,2"), "table.csv")\nres <- save_artifact("table.csv")\ncat(res$version_id)');
    expect(r.status).toBe('ok');
    const v = service.version(r.stdout.trim());
    expect(v.provenance.producer).toEqual({ kind: 'cell', cellId: r.cellId, generation: r.generation, language: 'r' });
    const env = v.provenance.environment;
    expect(env.status).toBe('recorded');
    if (env.status !== 'recorded') return;
    expect(env.language).toBe('r');
    expect(env.interpreter).toMatch(/Rscript$/);
    expect(env.interpreterVersion).toMatch(/^R \d+\.\d+\.\d+$/);
    expect(env.packages.map((p) => p.name)).toEqual(['jsonlite']);
    expect(env.packages[0]!.version).toMatch(/^\d+\.\d+/);
    expect(JSON.stringify(env)).not.toMatch(/numpy|pandas|matplotlib|python/i);
    expect(evidence.get('prov', v.evidenceId)!.snippet).toMatch(/cell .* of r generation .*\(R \d/);
  });

  it('a matplotlib figure left open by a Python cell becomes an artifact with Python\'s environment', async () => {
    const code = 'import matplotlib\nmatplotlib.use("Agg")\nimport matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [1, 4, 9])\nprint("drawn")';
    const cell = await sup.execute('prov', 'python', code);
    expect(cell.status).toBe('ok');
    const figures = cell.displays.filter((d) => d.path);
    expect(figures.length).toBeGreaterThan(0);
    const cellEv = recordCellEvidence(evidence, cell, code);
    const { saved, skipped } = await captureFigures(service, cell, sup.workspaceFor('prov'), [cellEv.id]);
    expect(skipped).toEqual([]);
    // Each figure's PNG and, beside it, its SVG and PDF (issue 25).
    expect(saved.map((s) => s.mime)).toEqual(figures.flatMap(() => ['image/png', 'image/svg+xml', 'application/pdf']));
    expect(saved[1]!.path).toBe(figures[0]!.svgPath);
    expect(saved[2]!.path).toBe(figures[0]!.pdfPath);
    expect(figures[0]!.pdfPath).toBe(figures[0]!.path!.replace(/\.png$/, '.pdf'));
    const pdf = fs.readFileSync(path.join(sup.workspaceFor('prov'), figures[0]!.pdfPath!));
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // No creation date: the same figure gives the same bytes (reproduce compares them).
    expect(pdf.toString('latin1')).not.toContain('/CreationDate');
    const v = saved[0]!;
    expect(v.mime).toBe('image/png');
    expect(fs.readFileSync(path.join(sup.workspaceFor('prov'), figures[0]!.path!)).subarray(1, 4).toString()).toBe('PNG');
    expect(v.provenance.inputEvidence).toEqual([cellEv.id]);
    const env = v.provenance.environment;
    expect(env.status).toBe('recorded');
    if (env.status !== 'recorded') return;
    expect(env.language).toBe('python');
    expect(env.interpreterVersion).toMatch(/^Python 3\./);
    expect(env.packages.map((p) => p.name)).toEqual(['numpy', 'pandas', 'matplotlib']);
    expect(env.packages.find((p) => p.name === 'matplotlib')!.version).toMatch(/^\d+\./);
    expect(JSON.stringify(env)).not.toMatch(/jsonlite|Rscript/);
  });
});
