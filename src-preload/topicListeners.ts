/**
 * The renderer's event listeners, counted per topic. Main forwards a topic to the window
 * only while at least one listener here hears it, so every change of the set of heard
 * topics (first listener of a topic added, last one removed) is reported to
 * `onTopicsChange` with the whole new list. Pure: the preload wires it to ipcRenderer,
 * and the e2e harness runs that same preload in Chromium.
 */
export interface TopicListeners {
  /** Adds a listener; the returned function removes it (calling it again does nothing). */
  add(topic: string, callback: (payload: unknown) => void): () => void;
  /** Delivers one event to the listeners of its topic, in the order they were added. */
  dispatch(topic: string, payload: unknown): void;
  /** The topics with at least one listener. */
  topics(): string[];
}

export function createTopicListeners(onTopicsChange: (topics: string[]) => void): TopicListeners {
  const byTopic = new Map<string, Set<(payload: unknown) => void>>();
  const topics = () => [...byTopic.keys()];

  return {
    add(topic, callback) {
      if (typeof topic !== 'string' || typeof callback !== 'function') {
        throw new TypeError('window.openai4s.on(topic, callback) needs a topic name and a function.');
      }
      let listeners = byTopic.get(topic);
      const firstOfTopic = !listeners;
      if (!listeners) byTopic.set(topic, (listeners = new Set()));
      // A wrapper per call, so the same callback added twice is counted (and removed) twice.
      const entry = (payload: unknown) => callback(payload);
      listeners.add(entry);
      if (firstOfTopic) onTopicsChange(topics());
      let removed = false;
      return () => {
        if (removed) return;
        removed = true;
        listeners.delete(entry);
        if (listeners.size === 0 && byTopic.get(topic) === listeners) {
          byTopic.delete(topic);
          onTopicsChange(topics());
        }
      };
    },

    dispatch(topic, payload) {
      const listeners = byTopic.get(topic);
      if (!listeners) return;
      // A throwing listener must not keep the event from the others (one broken view
      // would otherwise silence the store).
      for (const listener of [...listeners]) {
        try {
          listener(payload);
        } catch (error) {
          console.error(`[openai4s] a ${topic} listener failed:`, error);
        }
      }
    },

    topics,
  };
}
