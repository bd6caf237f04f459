import { applyJsonPatch } from '../../../src-preload/contract/jsonPatch';
import type { DataChunk, UIMessageChunk } from '../../../src-preload/contract/stream';
import { errorMessage } from '../shared/errorMessage';

/**
 * Our stream as the AI SDK UI message stream protocol has it, for everything that leaves
 * the app (the CLI's `--stream ui`, later an MCP server or an exported stream).
 *
 * Inside the app a `data-*` chunk may carry a `patch` (RFC 6902 operations on the part
 * with the same type and id): a cell's output grows by appends, so the ledger stores each
 * piece once. The protocol knows no patches: a `data-*` chunk is `{type, id, data}` and a
 * later chunk with the same id replaces the part. So this converter keeps each part's
 * current data, applies the patches itself, and sends full snapshots, coalesced: a patched
 * snapshot is held until the next chunk that is not a patch (or `flush()`, which the
 * caller runs on a timer and at the end). A cell printing 10k lines is then a handful of
 * snapshots, and since everything held is sent before the next chunk, the parts come out
 * in exactly the order our fold (src-preload/contract/fold.ts) gives them.
 *
 * Pure: no timers, no I/O. The semantics copy the fold's, so that the AI SDK's reader of
 * the output and our fold of the input end with the same message.
 */
export interface ProtocolConverter {
  /** The chunks to send now for one internal chunk (none while a patch is held). */
  push(chunk: UIMessageChunk): UIMessageChunk[];
  /** The held snapshots, in the order they were first held. */
  flush(): UIMessageChunk[];
  /** True while snapshots are held. */
  readonly pending: boolean;
}

type AnyDataChunk = DataChunk & { type: `data-${string}` };

function isDataChunk(chunk: UIMessageChunk): chunk is AnyDataChunk {
  return chunk.type.startsWith('data-');
}

/** Chunks that the fold applies without opening a message when none is open. */
function leavesClosedMessageClosed(chunk: UIMessageChunk): boolean {
  switch (chunk.type) {
    case 'finish':
    case 'message-metadata':
      return chunk.messageMetadata === undefined;
    case 'abort':
    case 'finish-step':
    case 'text-end':
    case 'reasoning-end':
      return true;
    default:
      return isDataChunk(chunk) && chunk.transient === true;
  }
}

/** The protocol's own data chunk: exactly `{type, id?, data, transient?}`. */
function snapshot(type: AnyDataChunk['type'], id: string | undefined, data: unknown, transient = false): UIMessageChunk {
  const out: AnyDataChunk = id === undefined ? { type, data } : { type, id, data };
  if (transient) out.transient = true;
  return out;
}

export function protocolConverter(): ProtocolConverter {
  /** The current data of each part of the open message, by `type \0 id`. */
  let parts = new Map<string, unknown>();
  /** Snapshots not sent yet (insertion order = the order they were first held). */
  const held = new Map<string, { type: AnyDataChunk['type']; id: string }>();
  let open = false;
  let messageId: string | undefined;
  const keyOf = (type: string, id: string) => `${type}\u0000${id}`;

  const flush = (): UIMessageChunk[] => {
    const out: UIMessageChunk[] = [];
    for (const [key, { type, id }] of held) out.push(snapshot(type, id, parts.get(key)));
    held.clear();
    return out;
  };

  /** True when the fold would begin a new message with this chunk (a part's id is scoped to its message). */
  const beginsMessage = (chunk: UIMessageChunk): boolean =>
    chunk.type === 'start'
      ? !(open && (chunk.messageId === undefined || chunk.messageId === messageId))
      : !open && !leavesClosedMessageClosed(chunk);

  const track = (chunk: UIMessageChunk): void => {
    if (beginsMessage(chunk)) {
      parts = new Map();
      messageId = chunk.type === 'start' ? chunk.messageId : undefined;
      open = true;
    }
    if (chunk.type === 'finish' || chunk.type === 'abort') open = false;
  };

  const data = (chunk: AnyDataChunk): UIMessageChunk[] => {
    if (chunk.transient) return [...flush(), snapshot(chunk.type, chunk.id, chunk.data ?? null, true)];
    const key = chunk.id === undefined ? undefined : keyOf(chunk.type, chunk.id);
    const known = key !== undefined && parts.has(key);
    let value: unknown = chunk.data ?? null;
    if (chunk.patch) {
      try {
        value = applyJsonPatch(known ? parts.get(key) : value, chunk.patch);
      } catch (error) {
        // As the fold does: the part keeps its data and the failure is a visible error part.
        const what = `${chunk.type}${chunk.id === undefined ? '' : ` "${chunk.id}"`}`;
        const errorText = `patch of ${what} failed (${errorMessage(error)}); the part keeps its previous data`;
        return [...flush(), snapshot('data-error', undefined, { errorText })];
      }
      if (key !== undefined) {
        parts.set(key, value);
        if (!held.has(key)) held.set(key, { type: chunk.type, id: chunk.id! });
        return [];
      }
    } else if (key !== undefined) {
      parts.set(key, value);
    }
    return [...flush(), snapshot(chunk.type, chunk.id, value)];
  };

  return {
    push(chunk) {
      // What is held belongs to the message it was patched in: sent before a new one begins.
      const out = beginsMessage(chunk) ? flush() : [];
      track(chunk);
      if (isDataChunk(chunk)) out.push(...data(chunk));
      else out.push(...flush(), chunk);
      return out;
    },
    flush,
    get pending() {
      return held.size > 0;
    },
  };
}
