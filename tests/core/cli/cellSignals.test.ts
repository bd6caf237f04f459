import { afterEach, describe, expect, it, vi } from 'vitest';
import { stopCellOnSignals, type CellStopper } from '../../../src-main/cli/commands/cellSignals';

// The signal policy of `openai4s kernel exec`, driven with process.emit (no real signal is
// sent: the listeners run as they would). The live tests in kernelExecLive.test.ts send real ones.

let stopper: CellStopper | null = null;
afterEach(() => {
  stopper?.dispose();
  stopper = null;
  vi.useRealTimers();
});

function start(close: () => Promise<void> = () => Promise.resolve()) {
  const seen = { said: [] as string[], exits: [] as number[], interrupts: 0, closes: 0 };
  stopper = stopCellOnSignals({
    interrupt: () => void seen.interrupts++,
    close: () => {
      seen.closes++;
      return close();
    },
    say: (t) => void seen.said.push(t),
    exit: (code) => void seen.exits.push(code),
  });
  return { seen, stopper };
}

const signal = (name: 'SIGINT' | 'SIGTERM') => process.emit(name as never);
const settle = () => new Promise((r) => setImmediate(r));

describe('kernel exec signals', () => {
  it('SIGTERM stops a running cell at once: no interrupt first, the core closes, one line, exit 143', async () => {
    const { seen, stopper: s } = start();
    s.markSent();
    signal('SIGTERM');
    expect(s.signal.aborted).toBe(true);
    expect(s.exitCode).toBe(143);
    await settle();
    expect(seen).toMatchObject({ interrupts: 0, closes: 1, exits: [143], said: ['[SIGTERM: the cell was stopped and its kernel shut down]'] });
  });

  it('SIGTERM before the cell reached its kernel says none of it ran', async () => {
    const { seen } = start();
    signal('SIGTERM');
    await settle();
    expect(seen.said).toEqual(['[SIGTERM: the cell was stopped before it started (none of it ran)]']);
    expect(seen.exits).toEqual([143]);
  });

  it('SIGTERM holds the command: the cell’s end prints nothing while the stop closes and exits', async () => {
    const { stopper: s } = start(() => new Promise(() => {}));
    s.markSent();
    signal('SIGTERM');
    const held = await Promise.race([s.held().then(() => 'settled'), settle().then(() => 'pending')]);
    expect(held).toBe('pending');
  });

  it('a close that hangs is cut short after 3 s: the line says so and the exit is still 143', async () => {
    vi.useFakeTimers();
    const { seen, stopper: s } = start(() => new Promise(() => {}));
    s.markSent();
    signal('SIGTERM');
    expect(seen.exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(seen.said).toEqual(['[SIGTERM: the cell was stopped; closing the data root took over 3 s and was cut short]']);
    expect(seen.exits).toEqual([143]);
  });

  it('Ctrl-C interrupts; a SIGTERM after it stops at once with 143, and a later Ctrl-C changes nothing', async () => {
    const { seen, stopper: s } = start();
    s.markSent();
    signal('SIGINT');
    expect(seen.interrupts).toBe(1);
    expect(s.exitCode).toBe(130);
    signal('SIGTERM');
    signal('SIGINT');
    await settle();
    expect(seen).toMatchObject({ interrupts: 1, closes: 1, exits: [143] });
    expect(seen.said).toHaveLength(2);
  });

  it('a second Ctrl-C still stops the kernel and exits 130', async () => {
    const { seen, stopper: s } = start();
    s.markSent();
    signal('SIGINT');
    signal('SIGINT');
    await settle();
    expect(seen).toMatchObject({ interrupts: 1, closes: 1, exits: [130] });
    expect(seen.said[1]).toBe('[SIGINT again: stopping the kernel]');
  });
});
