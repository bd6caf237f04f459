import type { KernelLeaseOwner, KernelLeaseView } from '../../../src-preload/contract/notebook';

/**
 * Who may use a session's kernels right now (the design seed's kernel ownership): an agent
 * turn, a cell the user runs, an environment switch. One holder per session; the others
 * wait in arrival order (FIFO) and can see who holds it. An agent turn holds it for the
 * whole run, so a user's cell never lands between two cells of the agent, and a switch of
 * environment never restarts a kernel under a running cell.
 */
interface Waiter {
  owner: KernelLeaseOwner;
  grant: () => void;
}

interface SessionLease {
  holder: KernelLeaseOwner | null;
  since: string | null;
  queue: Waiter[];
}

export class LeaseWaitAborted extends Error {
  constructor(owner: KernelLeaseOwner, holder: KernelLeaseOwner | null) {
    super(`${owner.label} stopped while it waited for the kernel${holder ? ` (held by ${holder.label})` : ''}; nothing of it ran.`);
    this.name = 'LeaseWaitAborted';
  }
}

const EMPTY_VIEW: KernelLeaseView = { holder: null, since: null, waiting: [] };

export class KernelLease {
  private readonly sessions = new Map<string, SessionLease>();

  /** The holder and the queue, for the one waiting (kernel.status) and for tests. */
  view(sessionId: string): KernelLeaseView {
    const s = this.sessions.get(sessionId);
    if (!s) return EMPTY_VIEW;
    return { holder: s.holder, since: s.since, waiting: s.queue.map((w) => w.owner) };
  }

  /**
   * Resolves with a release function once `owner` holds the session's kernels. A `signal`
   * aborted while waiting takes it off the queue (the promise rejects with LeaseWaitAborted).
   * `onWait` is told who holds the kernel when it has to wait.
   */
  acquire(sessionId: string, owner: KernelLeaseOwner, options: { signal?: AbortSignal; onWait?: (holder: KernelLeaseOwner) => void } = {}): Promise<() => void> {
    const s = this.sessions.get(sessionId) ?? { holder: null, since: null, queue: [] };
    this.sessions.set(sessionId, s);
    if (options.signal?.aborted) return Promise.reject(new LeaseWaitAborted(owner, s.holder));
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.handOn(sessionId, s);
    };
    if (!s.holder && !s.queue.length) return Promise.resolve(this.acquireFree(sessionId, owner));
    if (s.holder) options.onWait?.(s.holder);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        owner,
        grant: () => {
          options.signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      const onAbort = () => {
        const i = s.queue.indexOf(waiter);
        if (i < 0) return;
        s.queue.splice(i, 1);
        reject(new LeaseWaitAborted(owner, s.holder));
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      s.queue.push(waiter);
    });
  }

  /**
   * Takes the lease only if nobody holds it and nobody waits: a release function, or null
   * (then `view` says who holds it). For actions that must not queue behind a holder.
   */
  tryAcquire(sessionId: string, owner: KernelLeaseOwner): (() => void) | null {
    const s = this.sessions.get(sessionId);
    if (s && (s.holder || s.queue.length)) return null;
    return this.acquireFree(sessionId, owner);
  }

  /** Runs `work` while holding the lease; released however it ends. */
  async run<T>(sessionId: string, owner: KernelLeaseOwner, work: () => Promise<T>, options: { signal?: AbortSignal; onWait?: (holder: KernelLeaseOwner) => void } = {}): Promise<T> {
    const release = await this.acquire(sessionId, owner, options);
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Makes `owner` the holder of a free lease; the returned release hands it on (once). */
  private acquireFree(sessionId: string, owner: KernelLeaseOwner): () => void {
    const s = this.sessions.get(sessionId) ?? { holder: null, since: null, queue: [] };
    this.sessions.set(sessionId, s);
    s.holder = owner;
    s.since = new Date().toISOString();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.handOn(sessionId, s);
    };
  }

  private handOn(sessionId: string, s: SessionLease): void {
    const next = s.queue.shift();
    if (!next) {
      this.sessions.delete(sessionId);
      return;
    }
    s.holder = next.owner;
    s.since = new Date().toISOString();
    next.grant();
  }
}
