import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../src-main/core/core';

// The environment tools stay out of the first request (found with find_tools), and only
// env_create, which runs pip or conda on the host, asks before it runs.
let dir: string;
let core: Core;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-envtools-'));
  core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0' } });
});
afterAll(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('environment tools', () => {
  it('are on demand, found by find_tools, and env_create asks', () => {
    const names = ['env_list', 'env_use', 'env_create', 'env_rollback'];
    const offered = core.host.llmTools().map((t) => t.name);
    for (const name of names) {
      const tool = core.host.registry.get(name)!;
      expect(tool.onDemand).toBe(true);
      expect(offered).not.toContain(name);
      expect(tool.hostMethods).toEqual([]);
    }
    expect(core.host.registry.get('env_create')!.defaultPolicy).toBe('ask');
    expect(core.host.registry.get('env_create')!.sideEffect).toBe('exec');
    expect(core.host.registry.searchCatalogue('switch python environment').map((t) => t.name)).toContain('env_use');
  });
});
