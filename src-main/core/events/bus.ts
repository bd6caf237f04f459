import type { EventTopics } from '../../../src-preload/contract/events';

export type Listener<T> = (payload: T) => void;

/**
 * Main -> renderer events inside the core. The Electron glue forwards to the app window
 * the topics its renderer listens to; the CLI and the tests subscribe directly. A throwing listener never
 * stops the others (one broken window must not silence the rest).
 */
export class EventBus {
  private readonly listeners = new Map<keyof EventTopics, Set<Listener<never>>>();
  private readonly any = new Set<(topic: keyof EventTopics, payload: unknown) => void>();

  on<T extends keyof EventTopics>(topic: T, listener: Listener<EventTopics[T]>): () => void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  /** Every topic, for forwarding to a transport. */
  onAny(listener: (topic: keyof EventTopics, payload: unknown) => void): () => void {
    this.any.add(listener);
    return () => this.any.delete(listener);
  }

  emit<T extends keyof EventTopics>(topic: T, payload: EventTopics[T]): void {
    for (const l of this.listeners.get(topic) ?? []) {
      try {
        (l as Listener<EventTopics[T]>)(payload);
      } catch (error) {
        console.error(`[events] a ${topic} listener failed:`, error);
      }
    }
    for (const l of this.any) {
      try {
        l(topic, payload);
      } catch (error) {
        console.error(`[events] a forwarder failed on ${topic}:`, error);
      }
    }
  }
}
