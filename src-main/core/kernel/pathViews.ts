import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { cleanStaleViews, mountViewAsync, unmountView, unmountViewAsync, type FuseTools } from './fuseView';
import type { Spawner } from './spawner/spawner';

/** A kernel's hold on a folder's view; released when the kernel exits. */
export interface ViewLease {
  /** What bwrap binds: the FUSE mount point, or the folder itself (plain bind). */
  path: string;
  hidden: boolean;
  /** Resolves once the view is unmounted when this was its last kernel (at once otherwise); never rejects. */
  release(): Promise<void>;
}

interface Entry {
  key: string;
  /** Null: the kernels of this folder use plain binds. */
  mountPoint: string | null;
  fusermount: string | null;
  refs: number;
  /** Settles when the view is mounted (at once for a plain bind); a failed mount rejects every kernel waiting on it. */
  ready: Promise<void>;
  /** Set when a spare's plain entry joined its new folder's (moved): count there. */
  mergedInto?: Entry;
}

/**
 * The views of host folders shared by the live kernels (one per folder, reference
 * counted, unmounted when its last kernel exits).
 *
 * Why one per folder, and never a view next to a plain bind: bindfs works by path
 * outside the sandbox. If the same folder were changed through a second way (a second
 * bindfs, or a plain bind of another kernel of the session), a cell could swap a
 * folder for a symlink between two of the daemon's steps and make it open a host file:
 * measured, 510 host reads in 10 s with two views of one folder, none with one view.
 * So a folder's first kernel decides, and every later kernel of that folder follows
 * it while any of them lives.
 */
export class PathViews {
  private entries = new Map<string, Entry>();
  private unmounting = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly runDir: string,
    /** Runs bindfs and fusermount without forking the app, when it can. */
    private readonly spawner: () => Spawner | undefined = () => undefined,
  ) {}

  /** Views left by a killed app (at supervisor start). */
  cleanStale(fusermount: string | null): void {
    cleanStaleViews(this.runDir, fusermount);
  }

  /**
   * A lease on `dir`: a FUSE view when `tools` are given (and the folder has no plain
   * kernels), else the folder itself. A failed mount rejects (the caller falls back or
   * refuses, by mode). The entry is in the map from the moment its mount starts, so a
   * second kernel of the folder arriving meanwhile waits for the same view instead of
   * mounting its own (one view per folder).
   */
  async acquire(dir: string, tools: FuseTools | null, readOnly: boolean): Promise<ViewLease> {
    const key = this.key(dir, readOnly);
    let entry = this.entries.get(key);
    if (!entry) {
      const mountPoint = tools ? path.join(this.runDir, `${process.pid}-${randomUUID()}`) : null;
      const created: Entry = { key, mountPoint, fusermount: tools?.fusermount ?? null, refs: 0, ready: tools && mountPoint ? mountViewAsync(tools, dir, mountPoint, readOnly, this.spawner()) : Promise.resolve() };
      // A failed mount leaves no entry: the next kernel of the folder tries again (or binds it plainly).
      created.ready.catch(() => this.entries.get(key) === created && this.entries.delete(key));
      this.entries.set(key, (entry = created));
    }
    // Counted while the mount is under way: a kernel of the folder exiting meanwhile must not unmount it.
    entry.refs += 1;
    try {
      await entry.ready;
    } catch (error) {
      entry.refs -= 1;
      throw error;
    }
    if (this.closed) {
      entry.refs -= 1;
      await this.releaseEntry(entry);
      throw new Error('the kernel supervisor closed while the workspace view was being mounted');
    }
    const first = entry;
    let released = false;
    return {
      path: first.mountPoint ?? dir,
      hidden: first.mountPoint !== null,
      release: () => {
        if (released) return Promise.resolve();
        released = true;
        let held = first;
        while (held.mergedInto) held = held.mergedInto;
        held.refs -= 1;
        return this.releaseEntry(held);
      },
    };
  }

  /** Unmounts an entry nobody holds any more. */
  private releaseEntry(held: Entry): Promise<void> {
    if (held.refs > 0) return Promise.resolve();
    if (this.entries.get(held.key) === held) this.entries.delete(held.key);
    if (!held.mountPoint || !held.fusermount) return Promise.resolve();
    const unmounting = unmountViewAsync(held.fusermount, held.mountPoint, this.spawner());
    this.unmounting.add(unmounting);
    void unmounting.finally(() => this.unmounting.delete(unmounting));
    return unmounting;
  }

  /** Whether live kernels hold a view (or a plain bind) of `dir`. */
  inUse(dir: string): boolean {
    return this.entries.has(this.key(dir, false));
  }

  /** Whether `dir` is served through a FUSE view. */
  hidden(dir: string): boolean {
    return Boolean(this.entries.get(this.key(dir, false))?.mountPoint);
  }

  /** A spare whose folder is `spare` may take over `target` without two ways into one folder. */
  canMove(spare: string, target: string): boolean {
    return !this.inUse(target) || (!this.hidden(spare) && !this.hidden(target));
  }

  /**
   * A spare's folder became a session's workspace (renamed): its view follows, since
   * bindfs holds the folder itself, not its name. Plain binds of both join up (the
   * caller checked `canMove`).
   */
  moved(from: string, to: string): void {
    const entry = this.entries.get(this.key(from, false));
    if (!entry) return;
    this.entries.delete(entry.key);
    const toKey = this.key(to, false);
    const there = this.entries.get(toKey);
    if (there) {
      there.refs += entry.refs;
      entry.mergedInto = there;
      return;
    }
    entry.key = toKey;
    this.entries.set(toKey, entry);
  }

  /** Unmounts everything now (the app is exiting); a mount still under way is unmounted when it completes. */
  closeAll(): void {
    this.closed = true;
    for (const entry of this.entries.values()) if (entry.mountPoint && entry.fusermount) unmountView(entry.fusermount, entry.mountPoint);
    this.entries.clear();
  }

  /** Resolves once the unmounts under way have finished (the supervisor's close waits for them). */
  async settled(): Promise<void> {
    while (this.unmounting.size) await Promise.all([...this.unmounting]);
  }

  private key(dir: string, readOnly: boolean): string {
    return `${readOnly ? 'ro' : 'rw'}\0${path.resolve(dir)}`;
  }
}
