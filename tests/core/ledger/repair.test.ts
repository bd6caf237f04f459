import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLedger } from '../../../src-main/core/ledger/ledger';
import { INTERRUPTED_RESULT } from '../../../src-main/core/ledger/repair';
import { tempDir, track } from './support';

interface Ready {
  sessionId: string;
  runId: string;
  groupId: string;
}

/** Runs the crash fixture in a child process and kills it with SIGKILL mid-batch. */
async function crashMidBatch(file: string): Promise<Ready> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures/crashChild.ts'), file], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as Ready);
    });
    child.on('exit', (code) => reject(new Error(`crash fixture exited early (${code}): ${err}`)));
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  return ready;
}

describe('crash repair on open', () => {
  it('closes an interrupted tool batch with the canonical error and fails its run, replaying nothing', async () => {
    const file = path.join(tempDir(), 'ledger.sqlite3');
    const { sessionId, runId, groupId } = await crashMidBatch(file);

    const l = track(openLedger(file));
    expect(l.repair).toEqual({ interruptedGroups: [groupId], interruptedRuns: [runId], expiredPermissions: 1, endedKernels: 1 });

    const group = l.actions.require(groupId);
    expect(group.status).toBe('interrupted');
    expect(group.events.map((e) => [e.toolCallId, e.result, e.isError])).toEqual([
      ['call-1', { status: 200, bytes: 1256 }, false],
      ['call-2', { error: INTERRUPTED_RESULT }, true],
    ]);
    expect(group.events[1]).toMatchObject({ rawArguments: '{"url":"https://example.org/2"', parseError: 'Unexpected end of JSON input' });

    expect(l.runs.require(runId)).toMatchObject({ status: 'failed', failureCode: 'interrupted', failureMessage: expect.stringContaining(INTERRUPTED_RESULT) });

    // The history says what happened; the uncommitted chunk is gone, nothing else is.
    const [, assistant] = l.history(sessionId).messages;
    expect(assistant!.parts.map((p) => [p.type, 'state' in p ? p.state : null])).toEqual([
      ['step-start', null],
      ['tool-web_fetch', 'output-available'],
      ['tool-web_fetch', 'output-error'],
      ['data-error', null],
    ]);
    expect(assistant!.parts[2]).toMatchObject({ toolCallId: 'call-2', errorText: INTERRUPTED_RESULT, errorCode: 'interrupted' });

    // A second open finds nothing to repair: repair is not replay.
    const lastSeq = l.events.lastSeqOf(sessionId);
    l.close();
    const again = track(openLedger(file));
    expect(again.repair).toEqual({ interruptedGroups: [], interruptedRuns: [], expiredPermissions: 0, endedKernels: 0 });
    expect(again.events.lastSeqOf(sessionId)).toBe(lastSeq);
  });

  it('a run still queued when the app died is closed as never run, its message kept in the history', () => {
    const file = path.join(tempDir(), 'ledger.sqlite3');
    const first = openLedger(file);
    const s = first.createSession();
    const { run: active } = first.runs.submit(s.id, 'm1', 'first question');
    first.runs.start(active.id, null, null);
    const { run: queued } = first.runs.submit(s.id, 'm2', 'second question, sent during the first');
    // The process dies here: nothing finishes either run (close only releases the file).
    first.close();

    const l = track(openLedger(file));
    expect(l.repair!.interruptedRuns).toEqual(expect.arrayContaining([active.id, queued.id]));
    expect(l.runs.listByStatus('queued')).toEqual([]);
    expect(l.runs.require(queued.id)).toMatchObject({ status: 'failed', failureCode: 'interrupted', failureMessage: expect.stringMatching(/before this queued message ran.*Send it again/) });
    const messages = l.history(s.id).messages;
    expect(messages.filter((m) => m.role === 'user').map((m) => m.parts[0])).toEqual([
      { type: 'text', text: 'first question' },
      { type: 'text', text: 'second question, sent during the first' },
    ]);
    expect(messages.at(-1)!.parts.at(-1)).toMatchObject({ type: 'data-error', data: { errorCode: 'interrupted' } });
  });

  it('leaves in-flight work alone while another opener still has the ledger open', () => {
    const file = path.join(tempDir(), 'ledger.sqlite3');
    const owner = track(openLedger(file));
    const s = owner.createSession();
    const { run } = owner.runs.submit(s.id, 'm', 'hi');
    owner.runs.start(run.id, null, null);
    // The owner's open connection holds the lock exactly as another process's would
    // (SQLite coordinates connections within a process; tests/security covers processes).
    const reader = track(openLedger(file));
    expect(reader.repair).toBeNull();
    expect(reader.runs.require(run.id).status).toBe('processing');
  });
});
