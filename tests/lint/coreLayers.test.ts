import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { cruise, type IViolation } from 'dependency-cruiser';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * Proves the layer and cycle rules of `.dependency-cruiser.cjs` (run by `npm run lint`)
 * fire: each case writes a small tree shaped like src-main/core into a temp folder and
 * cruises it with the repo's own rule set.
 */
const repoRoot = path.resolve(__dirname, '../..');
const config = createRequire(import.meta.url)(path.join(repoRoot, '.dependency-cruiser.cjs')) as {
  forbidden: { name: string }[];
  options: Record<string, unknown>;
};
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function violations(files: Record<string, string>): Promise<IViolation[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-layers-'));
  dirs.push(dir);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  const { tsConfig: _repoTsConfig, ...options } = config.options;
  const result = await cruise(['src-main'], { ...options, baseDir: dir, validate: true, ruleSet: { forbidden: config.forbidden } } as never);
  if (typeof result.output === 'string') throw new Error('expected a cruise result object');
  return result.output.summary.violations;
}

const names = (found: IViolation[]) => found.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);

describe('core layers (dependency-cruiser)', () => {
  it('accepts a downward import (runner -> ledger)', async () => {
    const found = await violations({
      'src-main/core/ledger/store.ts': 'export const rows = 1;\n',
      'src-main/core/runner/run.ts': "import { rows } from '../ledger/store';\nexport const n = rows;\n",
    });
    expect(names(found)).toEqual([]);
  });

  it('refuses an inverted import (ledger -> runner)', async () => {
    const found = await violations({
      'src-main/core/runner/run.ts': 'export const n = 1;\n',
      'src-main/core/ledger/store.ts': "import { n } from '../runner/run';\nexport const rows = n;\n",
    });
    expect(names(found)).toEqual(['core-layer-ledger: src-main/core/ledger/store.ts -> src-main/core/runner/run.ts']);
  });

  it('refuses a lower layer importing the composition root (core.ts)', async () => {
    const found = await violations({
      'src-main/core/core.ts': 'export const core = 1;\n',
      'src-main/core/capabilities/host.ts': "import type { core } from '../core';\nexport type H = typeof core;\n",
    });
    expect(names(found)).toEqual(['core-layer-capabilities: src-main/core/capabilities/host.ts -> src-main/core/core.ts']);
  });

  it('refuses a cycle made only of type imports', async () => {
    const found = await violations({
      'src-main/core/kernel/a.ts': "import type { B } from './b';\nexport type A = B | 1;\n",
      'src-main/core/kernel/b.ts': "import type { A } from './a';\nexport type B = A | 2;\n",
    });
    expect(names(found)).toEqual(['no-circular: src-main/core/kernel/a.ts -> src-main/core/kernel/b.ts']);
  });

  it('refuses a folder of core that is not a declared layer', async () => {
    const found = await violations({
      'src-main/core/config/env.ts': 'export const env = 1;\n',
      'src-main/core/misc/helper.ts': "import { env } from '../config/env';\nexport const h = env;\n",
    });
    expect(names(found)).toEqual(['core-folders-are-layers: src-main/core/misc/helper.ts -> src-main/core/config/env.ts']);
  });
});
