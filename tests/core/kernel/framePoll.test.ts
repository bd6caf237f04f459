import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_FRAME_POLL, FramePoll, pipeFd, type FramePollOptions } from '../../../src-main/core/kernel/framePoll';
import { LineSplitter } from '../../../src-main/core/kernel/frames';

/**
 * A stand-in for a kernel worker that makes host calls in a loop: it writes `call N` on
 * fd 3, reads one answer line on fd 5, and so on; `sleepMs` is the work before each call,
 * or before each call until `quickFrom` (when given), after which the calls come at once.
 */
const CALLER = `
import os, sys, time
count, sleep = int(sys.argv[1]), float(sys.argv[2]) / 1000
quick_from = int(sys.argv[3]) if len(sys.argv) > 3 else count
buf = b""
for i in range(count):
    if sleep and i < quick_from:
        time.sleep(sleep)
    os.write(3, b"call %d\\n" % i)
    while b"\\n" not in buf:
        chunk = os.read(5, 65536)
        if not chunk:
            sys.exit(1)
        buf += chunk
    buf = buf[buf.index(b"\\n") + 1:]
os.write(3, b"done\\n")
`;

let child: ChildProcess | null = null;
afterEach(() => {
  child?.kill('SIGKILL');
  child = null;
});

/**
 * Runs the caller against a host that answers each call, reading fd 3 through the stream and
 * the poll; `via` says which of the two read each line.
 */
function serve(
  count: number,
  sleepMs: number,
  onTurn?: () => void,
  options: FramePollOptions = DEFAULT_FRAME_POLL,
  quickFrom?: number,
  /** The stream's reader listens before the poll is made, as the kernel's frame pump does. */
  pumpFirst = false,
): Promise<{ lines: string[]; via: ('poll' | 'stream')[]; poll: FramePoll }> {
  const args = ['-c', CALLER, String(count), String(sleepMs), ...(quickFrom === undefined ? [] : [String(quickFrom)])];
  child = spawn('/usr/bin/python3', args, { stdio: ['ignore', 'ignore', 'inherit', 'pipe', 'ignore', 'pipe'] });
  const frames = child.stdio[3] as Readable;
  const answers = (child.stdio as unknown as Writable[])[5]!;
  const fd = pipeFd(frames);
  if (fd === null) throw new Error('no fd under the child’s fd 3 pipe');
  const lines: string[] = [];
  const via: ('poll' | 'stream')[] = [];
  let reading: 'poll' | 'stream' = 'stream';
  return new Promise((resolve, reject) => {
    child!.once('exit', (code) => code !== 0 && reject(new Error(`the caller exited with ${code}`)));
    const splitter = new LineSplitter(
      (line) => {
        const text = line.toString();
        lines.push(text);
        via.push(reading);
        if (text === 'done') return resolve({ lines, via, poll });
        answers.write(`answer to ${text}\n`);
        poll.afterAnswer(answers.writableLength > 0);
      },
      () => reject(new Error('overflow')),
    );
    const read = (chunk: Buffer) => ((reading = 'stream'), splitter.push(chunk));
    if (pumpFirst) frames.on('data', read);
    const poll: FramePoll = new FramePoll(fd, frames, (chunk) => ((reading = 'poll'), splitter.push(chunk)), options);
    if (!pumpFirst) frames.on('data', read);
    if (onTurn) {
      // Turns between the first call and the last (not while the caller starts).
      const turn = () => {
        if (lines.length) onTurn();
        if (lines.at(-1) !== 'done') setImmediate(turn);
      };
      setImmediate(turn);
    }
  });
}

describe('frame poll after a host call’s answer', () => {
  it('delivers every call once and in order, whether the poll or the event loop read it', async () => {
    const { lines, poll } = await serve(3000, 0);
    expect(lines).toEqual([...Array.from({ length: 3000 }, (_, i) => `call ${i}`), 'done']);
    // A caller that calls again at once is read by the poll for most calls on an idle machine;
    // on a loaded one fewer, but never none.
    expect(poll.stats.hits).toBeGreaterThan(0);
  });

  it('polls after an answer written inside the data event that delivered its call, though the pump listened first', async () => {
    // The answer is written (and afterAnswer called) from the stream's own 'data' listener,
    // added before the poll's, as the kernel's frame pump is. The poll's listener must not
    // then take that answer for one given before the call (a stale answer is never polled).
    const wide = { windowUs: 1_000_000, chainMs: 1_000, maxSkip: 63 };
    const { poll } = await serve(200, 0, undefined, wide, undefined, true);
    expect(poll.stats.polls).toBeGreaterThan(100);
    expect(poll.stats.hits).toBe(poll.stats.polls);
  });

  it('backs off for a cell that works between its calls: 1, 3, 7, 15, ... answers unpolled after each missed poll', async () => {
    // 20 ms of work before each call: a poll finds it only if this thread is kept off the CPU
    // that long between an answer and its poll (with 3 ms it once did, on a loaded machine).
    const { lines, poll } = await serve(40, 20, undefined);
    expect(lines).toHaveLength(41);
    expect(poll.stats.hits).toBe(0);
    // Answers 0, 2, 6, 14 and 30 are polled (each misses: the next call comes 20 ms later).
    expect(poll.stats.polls).toBe(5);
  });

  it('lets the event loop turn during a burst (polls chain through microtasks only for a bounded time)', async () => {
    let turns = 0;
    // A window so wide that every poll finds the next call: only the chain bound returns to the loop.
    const { poll, via } = await serve(3000, 0, () => turns++, { windowUs: 1_000_000, chainMs: 2, maxSkip: 63 });
    expect(poll.stats.hits).toBe(poll.stats.polls);
    // Unbounded, the whole burst would run in microtasks and setImmediate would run about once.
    expect(turns).toBeGreaterThan(5);
    // Polling goes on past the chain bound: later calls are still read by the poll (after each
    // turn it resumes from the loop's check phase).
    expect(via.slice(1000, 3000).filter((v) => v === 'poll').length).toBeGreaterThan(0);
  });

  it('polls again once the cell is quick again: a hit or a call within the window ends the backoff', async () => {
    // Calls 0-7 each come 3 ms after their answer (every poll misses), then call 8 on come at once.
    const options = { windowUs: 2_000, chainMs: 1_000, maxSkip: 63 };
    const { via, poll } = await serve(60, 3, undefined, options, 8);
    expect(via.slice(0, 8)).not.toContain('poll');
    // Within a few answers of the change the calls are read by the poll again (a call that a
    // busy machine delays past the 2 ms window costs the next one or two, not the rest).
    expect(via.slice(20, 60).filter((v) => v === 'poll').length).toBeGreaterThanOrEqual(30);
    expect(poll.stats.hits).toBeGreaterThanOrEqual(30);
  });
});
