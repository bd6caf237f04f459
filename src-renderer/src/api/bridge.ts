import type {
  BridgeApi,
  Envelope,
  ErrorBody,
  ErrorCode,
  ErrorReason,
  EventTopic,
  EventTopics,
  RouteInput,
  RouteOutput,
  Routes,
} from '../../../src-preload/contract';

/**
 * The typed facade over `window.openai4s`. The preload answers every call with an
 * envelope; here it is unwrapped: the data is returned, an error is thrown as a
 * BridgeError carrying the main process's {code, message}.
 */
export type RouteName = keyof Routes & string;
export type InputOf<K extends RouteName> = RouteInput<Routes[K]>;
export type OutputOf<K extends RouteName> = RouteOutput<Routes[K]>;

/** Routes whose input may be omitted (their schema accepts undefined). */
type InputArgs<K extends RouteName> =
  undefined extends InputOf<K> ? [input?: InputOf<K>] : [input: InputOf<K>];

export class BridgeError extends Error implements ErrorBody {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** The case main named beside its message (said in the window's language: errors/envelopeText.ts). */
    readonly reason?: ErrorReason,
  ) {
    super(message);
    this.name = 'BridgeError';
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, ...(this.reason ? { reason: this.reason } : {}) };
  }
}

/**
 * Any thrown value as an ErrorBody, so the UI can always show a code and a message. What
 * the window threw itself is named internal, so another language heads its words too.
 */
export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof BridgeError) return error.toBody();
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message, reason: 'internal' };
}

export interface Bridge {
  invoke<K extends RouteName>(route: K, ...input: InputArgs<K>): Promise<OutputOf<K>>;
  /**
   * Listens to one topic; the returned function stops. Main sends a window only the
   * topics it has listeners for (the preload tells it), so subscribe where the events
   * are used and unsubscribe when done: a forgotten listener keeps its topic crossing IPC.
   */
  on<T extends EventTopic>(topic: T, callback: (payload: EventTopics[T]) => void): () => void;
}

const MISSING_API =
  'window.openai4s is missing: the renderer must run inside the OpenAI4S app (its preload provides the bridge). Start it with `npm start`.';

function isEnvelope(value: unknown): value is Envelope<unknown> {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false;
  const v = value as { ok: unknown; error?: unknown };
  if (v.ok === true) return 'data' in value;
  return v.ok === false && typeof v.error === 'object' && v.error !== null;
}

/** `getApi` is read on every call, so a test may install a fake `window.openai4s` late. */
export function createBridge(getApi: () => BridgeApi | undefined): Bridge {
  const api = (): BridgeApi => {
    const found = getApi();
    if (!found || typeof found.invoke !== 'function' || typeof found.on !== 'function') {
      throw new BridgeError('unavailable', MISSING_API, 'unavailable');
    }
    return found;
  };

  return {
    async invoke<K extends RouteName>(route: K, ...input: InputArgs<K>): Promise<OutputOf<K>> {
      let answer: unknown;
      try {
        answer = await api().invoke(route, input[0]);
      } catch (error) {
        if (error instanceof BridgeError) throw error;
        // The transport itself failed (e.g. the main process went away).
        const message = error instanceof Error ? error.message : String(error);
        throw new BridgeError(
          'unavailable',
          `The call to ${route} did not reach the app: ${message}`,
          // Named, so another language heads these English words with the case.
          'unavailable',
        );
      }
      if (!isEnvelope(answer)) {
        throw new BridgeError(
          'internal',
          `The app answered ${route} with something that is not an envelope.`,
          'internal',
        );
      }
      if (answer.ok) return answer.data as OutputOf<K>;
      const { code, message, reason } = answer.error;
      throw new BridgeError(
        code,
        typeof message === 'string' ? message : `${route} failed (${code}).`,
        typeof reason === 'string' ? reason : undefined,
      );
    },

    on<T extends EventTopic>(topic: T, callback: (payload: EventTopics[T]) => void) {
      return api().on(topic, (payload) => callback(payload as EventTopics[T]));
    },
  };
}

/** The bridge of this window. */
export const bridge: Bridge = createBridge(() =>
  typeof window === 'undefined' ? undefined : window.openai4s,
);
