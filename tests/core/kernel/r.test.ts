import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeSupervisor } from './helpers';

const { sup, dataDir } = makeSupervisor({
  host: { call: (method, args) => (method === 'save_artifact' ? { saved: (args as { path: string }).path } : Promise.reject(new Error('not available yet'))) },
});
afterAll(() => sup.close());

describe('R kernel (Rscript + jsonlite under bwrap)', () => {
  it('runs cells with a persistent global environment', async () => {
    const a = await sup.execute('r1', 'r', 'x <- 6 * 7\ncat(x)');
    expect(a.status).toBe('ok');
    expect(a.stdout).toBe('42');
    expect(a.sandbox.state).toBe('sandboxed');
    const b = await sup.execute('r1', 'r', 'x + 1');
    expect(b.stdout).toBe('[1] 43\n');
    expect(b.generation).toBe(a.generation);
    expect(b.usage!.peakRssKb).toBeGreaterThan(1000);
  });

  it('reports the failing line of the cell', async () => {
    const r = await sup.execute('r1', 'r', 'y <- 1\nz <- 2\nstop("boom")');
    expect(r.status).toBe('error');
    expect(r.error!.evalue).toBe('boom');
    expect(r.error!.line).toBe(3);
    expect(r.error!.traceback).toMatch(/<cell-\d+>, line 3/);
  });

  it('saves plots through a file device as PNG files, and calls the host', async () => {
    const r = await sup.execute('r1', 'r', 'plot(1:10)\nres <- save_artifact("plot.png")\ncat(res$saved)\ntry(host_call("llm", prompt = "hi"))');
    expect(r.status).toBe('ok');
    expect(r.stdout).toContain('plot.png');
    expect(r.stderr).toMatch(/llm: not available yet/);
    const figure = r.displays.find((d) => d.path)!;
    expect(fs.readFileSync(path.join(dataDir, 'workspaces', 'r1', figure.path!)).subarray(1, 4).toString()).toBe('PNG');
  });

  it('saves each plot page as SVG beside its PNG (base pages, a two-panel page, a grid page), in page order', async () => {
    const code = [
      'plot(1:10, main = "first page")',
      'par(mfrow = c(1, 2)); hist(c(1, 2, 2, 3), main = "left panel"); barplot(c(a = 3, b = 5), main = "right panel")',
      'library(grid); grid.newpage(); grid.text("grid page")',
    ].join('\n');
    const r = await sup.execute('r-svg', 'r', code);
    expect(r.status).toBe('ok');
    const figures = r.displays.filter((d) => d.path);
    expect(figures).toHaveLength(3);
    const ws = path.join(dataDir, 'workspaces', 'r-svg');
    const svgs = figures.map((f) => {
      expect(f.svgPath).toBe(f.path!.replace(/\.png$/, '.svg'));
      return fs.readFileSync(path.join(ws, f.svgPath!), 'utf8');
    });
    for (const svg of svgs) expect(svg).toMatch(/^<\?xml[\s\S]*<svg /);
    // Cairo draws text as glyphs, so the pages are told apart by how much they draw: the
    // two-panel page more than the first, the one-text grid page least.
    const paths = svgs.map((svg) => (svg.match(/<path /g) ?? []).length);
    expect(paths[1]).toBeGreaterThan(paths[0]!);
    expect(paths[0]).toBeGreaterThan(paths[2]!);
    // A cell that draws nothing has no figures; one that closes its own device keeps its PNG and its SVG (recorded as the device closed).
    expect((await sup.execute('r-svg', 'r', 'x <- 1')).displays).toEqual([]);
    const own = await sup.execute('r-svg', 'r', 'plot(1:3); dev.off()');
    expect(own.displays.filter((d) => d.path)).toHaveLength(1);
    expect(own.displays[0]!.svgPath).toBe(own.displays[0]!.path!.replace(/\.png$/, '.svg'));
  });

  it('is interrupted with its variables kept', async () => {
    setTimeout(() => sup.interrupt('r1', 'r'), 400);
    const r = await sup.execute('r1', 'r', 'Sys.sleep(30)');
    expect(r.status).toBe('interrupted');
    const after = await sup.execute('r1', 'r', 'cat(x)');
    expect(after.stdout).toBe('42');
  });

  it('says a cell’s warnings on stderr in R’s words after each expression, lists them in warnings(), and follows options(warn)', async () => {
    const one = await sup.execute('rwarn', 'r', 'f <- function() { warning("inside f"); 2 }\nf()');
    expect(one.stdout).toBe('[1] 2\n');
    expect(one.stderr).toBe('Warning message:\nIn f() : inside f\n');
    const test = await sup.execute('rwarn', 'r', 'chisq.test(matrix(c(1, 2, 3, 4), 2))$p.value > 0');
    expect(test.stderr).toBe('Warning message:\nIn chisq.test(matrix(c(1, 2, 3, 4), 2)) : Chi-squared approximation may be incorrect\n');
    const several = await sup.execute('rwarn', 'r', 'for (i in 1:3) warning(paste("w", i))');
    expect(several.stderr).toBe('Warning messages:\n1: w 1\n2: w 2\n3: w 3\n');
    const many = await sup.execute('rwarn', 'r', 'for (i in 1:60) warning(paste("w", i))\nlength(warnings())');
    expect(many.stderr).toBe('There were 50 or more warnings (use warnings() to see the first 50)\n');
    expect(many.stdout).toBe('[1] 50\n');
    const failed = await sup.execute('rwarn', 'r', 'warning("before")\nstop("boom")');
    expect(failed.error?.evalue).toBe('boom');
    expect(failed.stderr).toBe('Warning message:\nbefore\n');
    const quiet = await sup.execute('rwarn', 'r', 'suppressWarnings(as.integer("x"))\noptions(warn = -1); warning("hidden")\noptions(warn = 1); warning("now"); cat("after\\n")');
    expect(quiet.stderr).toBe('Warning: now\n');
    expect(quiet.stdout).toBe('[1] NA\nafter\n');
    const strict = await sup.execute('rwarn', 'r', 'options(warn = 2)\nf()');
    expect(strict.error?.evalue).toBe('(converted from warning) inside f');
  });

  it('refuses q() in a cell with an error, keeping the kernel and its variables (a pasted script’s last line ended the kernel)', async () => {
    const before = await sup.execute('rquit', 'r', 'kept <- 5');
    const r = await sup.execute('rquit', 'r', 'cat("bye\\n"); q(save = "no")');
    expect(r.died).toBeUndefined();
    expect(r.stdout).toBe('bye\n');
    expect(r.error).toMatchObject({ ename: 'quitRefused', evalue: 'q() is not run in a cell: the kernel and its variables stay (restart the kernel to start afresh)' });
    const after = await sup.execute('rquit', 'r', 'quit(); 1', {});
    expect(after.error?.ename).toBe('quitRefused');
    const still = await sup.execute('rquit', 'r', 'kept');
    expect(still.generation).toBe(before.generation);
    expect(still.stdout).toBe('[1] 5\n');
  });

  it('lets browser() in a cell go on without reading the worker’s own script (it ran the worker’s quit line)', async () => {
    const r = await sup.execute('rbrowser', 'r', 'browser(); cat("after\\n")');
    expect(r.status).toBe('ok');
    expect(r.stdout).toMatch(/after\n$/);
    expect(r.stderr).toBe('');
    expect((await sup.execute('rbrowser', 'r', 'cat("alive\\n")')).generation).toBe(r.generation);
  });

  it('closes a sink() the cell left open: the cell ends at once, its lines stay in the file, the next cells print here', async () => {
    const r = await sup.execute('rsink', 'r', 'sink("out.txt"); cat("into the file\\n")', { timeoutMs: 20_000 });
    expect(r.timeLimit).toBeUndefined();
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('sink() was left open by this cell and is closed now, so the next cells print here (end a sink with sink() in the cell that opens it)\n');
    const next = await sup.execute('rsink', 'r', 'cat(readLines("out.txt"), "/ visible\\n")');
    expect(next.generation).toBe(r.generation);
    expect(next.stdout).toBe('into the file / visible\n');
  });

  it('closes the cell’s connections on closeAllConnections() but not the kernel’s own (the kernel ended)', async () => {
    const r = await sup.execute('rclose', 'r', 'kept <- 3\nf <- file("a.txt", "w")\ncloseAllConnections()\ncat(inherits(try(isOpen(f), silent = TRUE), "try-error"), "\\n")', { timeoutMs: 20_000 });
    expect(r.died).toBeUndefined();
    expect(r.stdout).toBe('TRUE \n');
    const next = await sup.execute('rclose', 'r', 'kept');
    expect(next.generation).toBe(r.generation);
    expect(next.stdout).toBe('[1] 3\n');
  });
});
