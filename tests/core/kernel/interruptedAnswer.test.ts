import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The worker side of an interrupted host call, without a supervisor: a bare worker on
 * pipes, driven frame by frame, so the order in which it reads the answer and the
 * interrupt is fixed by the test instead of by the scheduler. The supervisor marks the
 * answer of a call of an interrupted cell (runCell.ts); here no `interrupt` frame is sent
 * at all, which is the order the race produced (the answer read first).
 */

const WORKERS = path.resolve(import.meta.dirname, '../../../kernel-workers');
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

function startWorker(language: 'python' | 'r'): { frames: () => Promise<Record<string, unknown>>; input: Writable; answers: Writable } {
  const child =
    language === 'python'
      ? spawn('/usr/bin/python3', [path.join(WORKERS, 'python/worker.py')], { stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe', 'pipe'] })
      : spawn('Rscript', ['--vanilla', path.join(WORKERS, 'r/worker.R')], { stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe', 'pipe'] });
  started.push(child);
  const stdio = child.stdio as unknown as [null, Readable, Readable, Readable, Writable, Writable];
  stdio[1].resume();
  stdio[2].resume();
  const queued: Record<string, unknown>[] = [];
  const waiting: ((frame: Record<string, unknown>) => void)[] = [];
  let partial = '';
  stdio[3].setEncoding('utf8').on('data', (text: string) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      if (!line) continue;
      const frame = JSON.parse(line) as Record<string, unknown>;
      const next = waiting.shift();
      if (next) next(frame);
      else queued.push(frame);
    }
  });
  const frames = () => new Promise<Record<string, unknown>>((resolve) => (queued.length ? resolve(queued.shift()!) : waiting.push(resolve)));
  // R reads its answers with the other frames on fd 4 (kernelProcess.ts).
  return { frames, input: stdio[4], answers: language === 'python' ? stdio[5] : stdio[4] };
}

async function callAnswered(language: 'python' | 'r', answer: Record<string, unknown>): Promise<Record<string, unknown>> {
  const worker = startWorker(language);
  expect((await worker.frames()).type).toBe('ready');
  const code = language === 'python' ? 'host.call("web_fetch", url="https://example.org/")\nprint("after")' : 'host_call("web_fetch", url = "https://example.org/")\ncat("after\\n")';
  worker.input.write(`${JSON.stringify({ type: 'execute', id: 'c1', code, marker: 'm1' })}\n`);
  const call = await worker.frames();
  expect(call).toMatchObject({ type: 'host_call', method: 'web_fetch' });
  worker.answers.write(`${JSON.stringify({ type: 'host_response', id: call.id, ...answer })}\n`);
  let frame = await worker.frames();
  while (frame.type !== 'result') frame = await worker.frames();
  return frame;
}

describe('the answer of a call of an interrupted cell', () => {
  for (const language of ['python', 'r'] as const) {
    it(`${language}: an answer marked interrupted ends the cell as interrupted, even before any interrupt frame`, async () => {
      const result = await callAnswered(language, { error: 'not run: cancelled while waiting for approval', interrupted: true });
      expect(result.ok).toBe(false);
      expect((result.error as { ename: string }).ename).toBe('KeyboardInterrupt');
    }, 30_000);

    it(`${language}: the same error answer without the mark raises HostError in the cell`, async () => {
      const result = await callAnswered(language, { error: 'not run: cancelled while waiting for approval' });
      expect(result.ok).toBe(false);
      expect((result.error as { ename: string }).ename).toBe('HostError');
    }, 30_000);
  }
});
