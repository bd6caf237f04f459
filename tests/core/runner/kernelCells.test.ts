import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import { KernelSupervisor } from '../../../src-main/core/kernel/supervisor';
import { kernelPort } from '../../../src-main/core/runner/kernelCells';

let dir: string;
let supervisor: KernelSupervisor;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-cells-'));
  supervisor = new KernelSupervisor({ dataDir: dir, processEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, sandboxMode: () => 'auto', idleShutdownMs: 0 });
});
afterAll(async () => {
  await supervisor.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('cells as data-cell parts', () => {
  it('streams output, then keeps the order stdout and stderr were written in', async () => {
    const chunks: StreamChunk[] = [];
    const port = kernelPort(supervisor);
    const code = 'import sys, time\nprint("a", flush=True)\ntime.sleep(0.2)\nprint("b", file=sys.stderr, flush=True)\ntime.sleep(0.2)\nprint("c", flush=True)';
    const outcome = await port.executeCell('python', code, { sessionId: 'cells', runId: 'r1', signal: new AbortController().signal, emit: (c) => chunks.push(c) });
    expect(outcome.ok).toBe(true);
    expect(outcome.summary).toContain('stdout:\na\nc');
    const final = chunks.at(-1) as { type: string; data: { status: string; output: { stream: string; text: string }[] } };
    expect(final.type).toBe('data-cell');
    expect(final.data.status).toBe('ok');
    expect(final.data.output.map((o) => `${o.stream}:${o.text}`)).toEqual(['stdout:a\n', 'stderr:b\n', 'stdout:c\n']);
    // While it ran, the pieces arrived as JSON-patch appends.
    expect(chunks.filter((c) => 'patch' in c && c.patch).length).toBeGreaterThanOrEqual(3);
  }, 60_000);
});
