import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeSupervisor } from './helpers';

describe('pre-warmed spare worker', () => {
  const { sup, dataDir } = makeSupervisor({ prewarm: ['python'] });
  afterAll(() => sup.close());

  it('is handed over as the session\'s first generation, with the science imports done and the workspace moved in', async () => {
    sup.openSession('w1');
    // The user already put a file in the session's workspace before the first cell.
    const ws = path.join(dataDir, 'workspaces', 'w1');
    fs.mkdirSync(ws, { recursive: true });
    fs.writeFileSync(path.join(ws, 'data.csv'), 'a,b\n1,2\n');
    await new Promise((r) => setTimeout(r, 200));
    const r = await sup.execute('w1', 'python', 'import sys, os\nprint("numpy" in sys.modules, "np" in globals())\nprint(open("data.csv").read().strip())\nopen("out.txt", "w").write("x")');
    expect(r.status).toBe('ok');
    expect(r.stdout).toBe('True False\na,b\n1,2\n');
    expect(fs.readFileSync(path.join(ws, 'out.txt'), 'utf8')).toBe('x');
    const spares = fs.readdirSync(path.join(dataDir, 'workspaces')).filter((n) => n.startsWith('.spare-') && n !== '');
    // The adopted spare's folder became w1; a replacement may be warming under a new name.
    expect(spares.every((n) => fs.existsSync(path.join(dataDir, 'workspaces', n)))).toBe(true);
    // The science imports were done by the spare (their speed is a benchmark row, not a test).
    const science = await sup.execute('w1', 'python', 'import sys\nprint(all(m in sys.modules for m in ("numpy", "pandas", "matplotlib.pyplot")))');
    expect(science.stdout).toBe('True\n');
  }, 60_000);
});
