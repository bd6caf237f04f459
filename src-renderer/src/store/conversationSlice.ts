import type { SessionStreamEvent } from '../../../src-preload/contract';
import { toErrorBody } from '../api/bridge';
import { errorNotice } from './noticesReducer';
import {
  conversationReducer,
  openConversation,
  type ConversationAction,
} from './conversationReducer';
import { foldEarlier, type EarlierPageFetch, type FoldedFetch } from './earlierHistory';
import { REPLAY_PAGE } from './replayPage';
import { sessionsDispatch } from './sessionsDispatch';
import type { ConversationSlice, Slice, StoreDeps } from './types';

const PANEL_REFRESH_MS = 250;
/** The title a session gets from its first message. */
const TITLE_CHARS = 80;
const DEFAULT_TITLES = new Set(['New session', '新建会话']);

function newMutationId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function')
    return crypto.randomUUID();
  return `m-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]!.trim();
  return line.length <= TITLE_CHARS ? line : `${line.slice(0, TITLE_CHARS - 1)}…`;
}

/** Chunks after which the artifact and evidence lists may have grown. */
function touchesRecords(e: SessionStreamEvent): boolean {
  const c = e.chunk as { type: string; data?: { status?: unknown } };
  if (c.type === 'data-cell') return c.data !== undefined && c.data.status !== 'running';
  // A child agent that ended may have left evidence and artifacts of the session (issue 20).
  if (c.type === 'data-child') return c.data !== undefined && c.data.status !== 'running' && c.data.status !== 'queued';
  return (
    c.type === 'data-artifact' ||
    c.type === 'data-evidence' ||
    c.type === 'tool-output-available' ||
    c.type === 'finish' ||
    c.type === 'abort'
  );
}

/** Chunks after which a session's run state (its sidebar badge) may have changed. */
const ACTIVITY_CHUNKS = new Set(['user-message', 'finish', 'abort', 'data-run-status']);

export const createConversationSlice =
  (deps: StoreDeps): Slice<ConversationSlice> =>
  (set, get) => {
    let loadCounter = 0;
    const sessions = sessionsDispatch(set);
    const dispatch = (action: ConversationAction) =>
      set((s) =>
        s.conversation ? { conversation: conversationReducer(s.conversation, action) } : {},
      );

    /**
     * Opens a session at its end: `session.open` brings its last turns, which are folded
     * and shown at once; the earlier chunks follow page by page and are folded in front.
     */
    async function load(sessionId: string): Promise<void> {
      const loadId = ++loadCounter;
      set({ conversation: openConversation(sessionId, loadId) });
      try {
        const opening = await deps.bridge.invoke('session.open', { sessionId });
        dispatch({ type: 'conv/loaded', loadId, events: opening.events, runs: opening.runs, fromSeq: opening.fromSeq });
        sessions({ type: 'sessions/upserted', session: opening.session });
        if (opening.fromSeq <= 1) return;
        const source = { page: (request: Parameters<EarlierPageFetch>[0]) => deps.bridge.invoke('session.earlier', request), folded: (request: Parameters<FoldedFetch>[0]) => deps.bridge.invoke('session.folded', request) };
        const earlier = await foldEarlier(source, sessionId, opening.fromSeq);
        dispatch({ type: 'conv/earlier', loadId, messages: earlier });
      } catch (error) {
        dispatch({ type: 'conv/failed', loadId, error: toErrorBody(error) });
      }
    }

    /** Fills a gap with `session.replay`; a replay that brings nothing reloads the whole history. */
    async function fillGap(): Promise<void> {
      for (let attempt = 0; attempt < 50; attempt++) {
        const conv = get().conversation;
        if (!conv || conv.gapAfter === null) return;
        const { sessionId, gapAfter } = conv;
        let events: SessionStreamEvent[];
        try {
          events = (
            await deps.bridge.invoke('session.replay', {
              sessionId,
              afterSeq: gapAfter,
              limit: REPLAY_PAGE,
            })
          ).events;
        } catch {
          events = [];
        }
        if (get().conversation?.sessionId !== sessionId) return;
        if (events.length === 0) return load(sessionId);
        dispatch({ type: 'conv/replayed', events });
      }
    }

    async function refreshRuns(sessionId: string): Promise<void> {
      try {
        const detail = await deps.bridge.invoke('session.get', { sessionId });
        if (get().conversation?.sessionId === sessionId)
          dispatch({ type: 'conv/runs', runs: detail.runs });
      } catch {
        // The next event or reload tries again.
      }
    }

    // Panel lists are refetched at most every PANEL_REFRESH_MS while records keep arriving.
    let panelTimer: ReturnType<typeof setTimeout> | null = null;
    const refreshPanels = (sessionId: string) => {
      if (panelTimer) return;
      panelTimer = setTimeout(() => {
        panelTimer = null;
        if (get().conversation?.sessionId !== sessionId) return;
        void get().loadArtifacts(sessionId);
        void get().loadEvidence(sessionId);
      }, PANEL_REFRESH_MS);
    };

    return {
      conversation: null,
      async openSession(sessionId) {
        sessions({ type: 'sessions/selected', sessionId });
        get().setView('session');
        await load(sessionId);
        void get().loadArtifacts(sessionId);
        void get().loadEvidence(sessionId);
      },
      closeSession() {
        loadCounter++;
        sessions({ type: 'sessions/selected', sessionId: null });
        set({ conversation: null });
        if (get().view === 'session') get().setView('home');
      },
      receiveStream(events) {
        const touched = new Set<string>();
        const titled = new Set<string>();
        for (const e of events) {
          if (ACTIVITY_CHUNKS.has(e.chunk.type)) touched.add(e.sessionId);
          if (e.chunk.type === 'user-message') titled.add(e.sessionId);
        }
        const before = get().conversation;
        dispatch({ type: 'conv/events', events });
        const after = get().conversation;
        if (after && after.gapAfter !== null && before?.gapAfter === null) void fillGap();
        if (after && after.status === 'ready') {
          const known = new Set(after.runs.map((r) => r.id));
          // A child agent's chunks (data-child-event) carry its own run id, never one of the session's runs.
          if (events.some((e) => e.sessionId === after.sessionId && e.runId && !known.has(e.runId) && e.chunk.type !== 'data-child-event'))
            void refreshRuns(after.sessionId);
        }
        if (after && events.some((e) => e.sessionId === after.sessionId && touchesRecords(e)))
          refreshPanels(after.sessionId);
        for (const id of touched) void get().refreshActivity(id);
        for (const id of titled) void get().refreshSession(id);
      },
      async sendMessage(text, options = {}) {
        const message = text.trim();
        if (!message) return false;
        let sessionId = get().conversation?.sessionId ?? null;
        if (!sessionId) sessionId = await get().createSession(titleFrom(message));
        if (!sessionId) return false;
        const summary = get().sessions.items.find((s) => s.id === sessionId);
        const conv = get().conversation;
        if (
          summary &&
          DEFAULT_TITLES.has(summary.title) &&
          conv &&
          conv.fold.messages.length === 0 &&
          conv.runs.length === 0
        ) {
          void get().renameSession(sessionId, titleFrom(message));
        }
        try {
          const run = await deps.bridge.invoke('run.submit', {
            sessionId,
            mutationId: newMutationId(),
            message,
            ...(options.provider ? { provider: options.provider } : {}),
            ...(options.model ? { model: options.model } : {}),
            ...(options.delegation === false ? { delegation: false } : {}),
            ...(options.supersedes ? { supersedes: options.supersedes } : {}),
          });
          if (get().conversation?.sessionId === sessionId)
            dispatch({ type: 'conv/submitted', run });
          void get().refreshActivity(sessionId);
          return true;
        } catch (error) {
          get().receiveNotice(errorNotice(error));
          return false;
        }
      },
      async stopRun() {
        const sessionId = get().conversation?.sessionId;
        if (!sessionId) return;
        try {
          await deps.bridge.invoke('run.stop', { sessionId });
        } catch (error) {
          get().receiveNotice(errorNotice(error));
        }
      },
      async extendCellLimit(language, extendMs) {
        const sessionId = get().conversation?.sessionId;
        if (!sessionId) return null;
        try {
          return await deps.bridge.invoke('kernel.extendCellLimit', { sessionId, language, extendMs });
        } catch (error) {
          get().receiveNotice(errorNotice(error));
          return null;
        }
      },
    };
  };
