import type { StreamChunk } from '../../../src-preload/contract/stream';
import type { Cost, LanguageModelPort, Usage } from '../llm/types';

/** What a session's live run offers to host calls from its cells (audit, activity, host.llm). */
export interface LiveRun {
  runId: string;
  model: LanguageModelPort | null;
  emit: (chunk: StreamChunk) => void;
  signal: AbortSignal;
  /** False when the user forbade child agents for this message (the composer's switch). */
  delegation?: boolean;
  /** Counts a model call made for the run from one of its cells (host.llm) in the run's usage. */
  charge?(usage: Usage, cost: Cost | null): void;
  /** Why the run makes no more model calls (a child stopped or out of budget); null while it may. */
  stopReason?(): string | null;
}

/**
 * The runs streaming right now, one per session at most. It is built before the host
 * (which audits a cell's host calls under the live run and shows them in its stream)
 * and before the session runner (which registers a run once its model and stream exist
 * and removes it when the run ends), so neither needs a setter on the other.
 */
export class LiveRuns {
  private readonly bySession = new Map<string, LiveRun>();
  private readonly endListeners: ((sessionId: string, runId: string) => void)[] = [];
  private readonly endingListeners: ((sessionId: string, runId: string) => void)[] = [];

  /** Registers a session's running run (its model and stream exist). */
  start(sessionId: string, run: LiveRun): void {
    this.bySession.set(sessionId, run);
  }

  /** The run is ending: its message still takes chunks (its closing chunks come next). */
  ending(sessionId: string, runId: string): void {
    if (this.bySession.get(sessionId)?.runId !== runId) return;
    notify(this.endingListeners, sessionId, runId);
  }

  /** Called while a run ends, before its last chunks (the delegation layer closes its children's parts). */
  onEnding(listener: (sessionId: string, runId: string) => void): void {
    this.endingListeners.push(listener);
  }

  /** The run ended: its entry goes (and only its entry, should a newer run have started). */
  end(sessionId: string, runId: string): void {
    if (this.bySession.get(sessionId)?.runId !== runId) return;
    this.bySession.delete(sessionId);
    notify(this.endListeners, sessionId, runId);
  }

  /** Called after a run's entry goes (the delegation layer ends the children it started). */
  onEnd(listener: (sessionId: string, runId: string) => void): void {
    this.endListeners.push(listener);
  }

  of(sessionId: string): LiveRun | null {
    return this.bySession.get(sessionId) ?? null;
  }

  size(): number {
    return this.bySession.size;
  }
}

function notify(listeners: readonly ((sessionId: string, runId: string) => void)[], sessionId: string, runId: string): void {
  for (const listener of listeners) {
    try {
      listener(sessionId, runId);
    } catch {
      // a listener's failure is not the run's
    }
  }
}
