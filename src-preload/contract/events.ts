/**
 * Main -> renderer events. Not parsed on arrival (main is trusted). Each event of a
 * session carries a per-session monotonically increasing `seq` so the renderer can
 * detect a gap and refetch.
 */
import type { KernelEventTopics } from './kernel';
import type { AppNoticeEvent } from './notices';
import type { SessionStreamEvent } from './sessions';

// Types only: the preload imports this file's channel names and must not pull in zod.
export type { AppNoticeCode, AppNoticeEvent, AppNoticeInput } from './notices';

export interface EventTopics extends KernelEventTopics {
  'app.notice': AppNoticeEvent;
  /** Every chunk of a session's stream, after the ledger stored it (`seq` per session). */
  'session.stream': SessionStreamEvent;
}

export type EventTopic = keyof EventTopics;

/** The object the preload exposes as `window.openai4s`, and the e2e harness imitates. */
export interface BridgeApi {
  invoke(route: string, input?: unknown): Promise<unknown>;
  on(topic: string, callback: (payload: unknown) => void): () => void;
}

/** The single IPC channel names of the funnel. */
export const INVOKE_CHANNEL = 'openai4s:invoke';
export const EVENT_CHANNEL = 'openai4s:event';
/**
 * Renderer -> main, fire and forget: the whole list of topics the window has listeners
 * for, sent by the preload when the list changes (and `[]` when a document loads, so a
 * reload starts from nothing). Main forwards only these topics to that window.
 */
export const SUBSCRIPTIONS_CHANNEL = 'openai4s:subscriptions';
