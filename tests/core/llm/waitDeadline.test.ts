import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WaitDeadline } from '../../../src-main/core/llm/waitDeadline';

const never = () => new Promise<never>(() => undefined);

describe('WaitDeadline: a timeout that counts only while someone waits', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('expires a wait that lasts its limit, naming the phase', async () => {
    const expired: string[] = [];
    const d = new WaitDeadline<string>((phase) => expired.push(phase));
    void d.wait(never(), 'idle', 100);
    await vi.advanceTimersByTimeAsync(99);
    expect(expired).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(expired).toEqual(['idle']);
    d.dispose();
  });

  it('never counts the time between waits, and a later wait gets its whole limit', async () => {
    const expired: string[] = [];
    const d = new WaitDeadline<string>((phase) => expired.push(phase));
    let release!: () => void;
    // A short wait arms the timer; then the caller holds its part far longer than the limit.
    await Promise.all([d.wait(new Promise<void>((r) => (release = r)), 'idle', 100), Promise.resolve().then(() => release())]);
    await vi.advanceTimersByTimeAsync(500);
    expect(expired).toEqual([]);
    // A wait that starts now expires 100 ms after it started, not when the old timer was due.
    void d.wait(never(), 'idle', 100);
    await vi.advanceTimersByTimeAsync(60);
    expect(expired).toEqual([]);
    await vi.advanceTimersByTimeAsync(40);
    expect(expired).toEqual(['idle']);
    d.dispose();
  });

  it('a wait that starts while the timer is armed for a longer limit is expired at its own', async () => {
    const expired: string[] = [];
    const d = new WaitDeadline<string>((phase) => expired.push(phase));
    await d.wait(Promise.resolve(), 'connect', 1_000);
    void d.wait(never(), 'idle', 50);
    await vi.advanceTimersByTimeAsync(50);
    expect(expired).toEqual(['idle']);
    d.dispose();
  });

  it('re-arms for the time left when its timer fires during a wait that began later', async () => {
    const expired: string[] = [];
    const d = new WaitDeadline<string>((phase) => expired.push(phase));
    await d.wait(Promise.resolve(), 'idle', 100); // timer due at t=100
    await vi.advanceTimersByTimeAsync(80);
    void d.wait(never(), 'idle', 100); // began at t=80: expires at t=180
    await vi.advanceTimersByTimeAsync(20); // t=100: the old timer fires, 80 ms are left
    expect(expired).toEqual([]);
    await vi.advanceTimersByTimeAsync(79);
    expect(expired).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(expired).toEqual(['idle']);
    d.dispose();
  });

  it('dispose stops the timer: nothing expires afterwards and no timer is left', async () => {
    const expired: string[] = [];
    const d = new WaitDeadline<string>((phase) => expired.push(phase));
    void d.wait(never(), 'idle', 100);
    d.dispose();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(expired).toEqual([]);
  });
});
