import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../src-preload/contract/routes';
import type { CitedAnswer } from '../../../src-preload/contract/answer';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createCore, type Core } from '../../../src-main/core/core';
import { createRouter } from '../../../src-main/core/api/router';

let dir: string;
let core: Core;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-demoroute-'));
  core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_OPENAI_API_KEY: '', OPENAI4S_LLM_API_KEY: '', OPENAI4S_ARK_API_KEY: '' } });
});
afterAll(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('demo.start (the app\'s "Try the demo")', () => {
  it('replays the story in a new, labelled session without a key; other sessions keep the real configuration', async () => {
    const router = createRouter(routes, createHandlers(core));
    const started = await router.handle('demo.start', {}, { origin: 'app://openai4s', isMainFrame: true });
    expect(started.ok).toBe(true);
    const { session, run } = (started as { data: { session: { id: string; title: string }; run: { id: string } } }).data;
    expect(session.title).toMatch(/演示回放/);
    // While the replay runs, another session still sees the app's own (unconfigured) provider.
    const other = core.ledger.createSession('real');
    expect(core.envFor(other.id).value('OPENAI4S_OPENAI_BASE_URL')).toBeUndefined();
    expect(core.envFor(session.id).value('OPENAI4S_OPENAI_BASE_URL')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const done = await core.runner.result(run.id);
    expect(done).toMatchObject({ status: 'completed', model: 'openai4s-demo-replay' });
    const answer = core.ledger.history(session.id).messages.at(-1)!.parts.find((p) => p.type === 'data-answer') as { data: CitedAnswer };
    expect(answer.data.cited).toBe(true);
    expect(core.provenance.artifacts.list(session.id).map((a) => a.path)).toEqual(
      expect.arrayContaining(['sequences/P01308.fasta', 'structures/4INS.pdb', expect.stringMatching(/^figures\/.+\.png$/)]),
    );
    // The overlay ends with the run.
    await vi.waitFor(() => expect(core.envFor(session.id).value('OPENAI4S_OPENAI_BASE_URL')).toBeUndefined(), { timeout: 10_000 });
  }, 120_000);
});
