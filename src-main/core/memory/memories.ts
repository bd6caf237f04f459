import { AppError } from '../../../src-preload/contract/errors';
import { MEMORY_MAX_CHARS, type MemoryOrigin, type MemoryRecord, type MemoryScope } from '../../../src-preload/contract/memory';
import type { Ledger } from '../ledger/ledger';
import { scrubSecrets } from '../security/secrets';
import { statesPassword } from './statedPassword';

/**
 * A memory's text as it will be stored, or a clear refusal. Memories are stored in clear,
 * shown to the model every turn and carried in exports, so anything the secret scrubber
 * would redact (a configured key, or anything shaped like one) is refused, never stored
 * redacted: a half-remembered key helps no one.
 */
/** Control characters other than line breaks and tabs, zero-width characters and bidi controls (built from code points). */
const HIDDEN_CHARACTER = new RegExp(
  `[${[[0x0, 0x8], [0xb, 0xc], [0xe, 0x1f], [0x7f, 0x9f], [0x200b, 0x200f], [0x202a, 0x202e], [0x2060, 0x2064], [0x2066, 0x2069], [0xfeff, 0xfeff]]
    .map(([a, b]) => `\\u${a!.toString(16).padStart(4, '0')}-\\u${b!.toString(16).padStart(4, '0')}`)
    .join('')}]`,
);

export function checkMemoryText(raw: string): string {
  const text = raw.trim();
  if (!text) throw new AppError('invalid_input', 'A memory needs some text: say the fact or preference to keep.');
  if (text.length > MEMORY_MAX_CHARS) {
    throw new AppError('invalid_input', `A memory is at most ${MEMORY_MAX_CHARS} characters (this one has ${text.length}): keep the fact itself, and save longer notes as a workspace file.`);
  }
  // Shown to the model every turn and in the Memory panel: a control or bidi character would
  // hide or reorder what the person reads there (a memory that displays differently than it reads).
  const hidden = HIDDEN_CHARACTER.exec(text);
  if (hidden) {
    const code = `U+${hidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new AppError('invalid_input', `A memory is plain text: it holds the invisible character ${code} at position ${hidden.index + 1}. Remove it and say the fact again.`);
  }
  if (scrubSecrets(text) !== text) {
    throw new AppError(
      'invalid_input',
      'This memory looks like it contains a secret (an API key, token or password), and secrets are never stored as memories: they are kept in clear and shown to the model. Put keys in Settings → Providers or the data root .env instead, and remember only what the key is for.',
    );
  }
  if (statesPassword(text)) {
    throw new AppError(
      'invalid_input',
      'This memory gives a password, and passwords are never stored as memories: they are kept in clear and shown to the model. Remember where it is kept instead, e.g. "the lab server password is in the team vault".',
    );
  }
  return text;
}

export interface RememberInput {
  text: string;
  scope: MemoryScope;
  /** The session it is made in (required for session scope). */
  sessionId: string | null;
  origin: MemoryOrigin;
  runId?: string | null;
}

/**
 * Memories over the ledger's append-only memory events: remember, edit and forget each
 * append one event, so the whole history stays (a forget is an event, not a delete).
 */
export class MemoryService {
  constructor(private readonly ledger: () => Ledger) {}

  remember(input: RememberInput): MemoryRecord {
    const text = checkMemoryText(input.text);
    if (input.scope === 'session' && !input.sessionId) {
      throw new AppError('invalid_input', 'A session memory needs a session: name the session, or remember it for the data root (scope "data_root").');
    }
    if (input.sessionId) this.ledger().sessions.require(input.sessionId);
    return this.ledger().memory.remember({ text, scope: input.scope, sessionId: input.sessionId, origin: input.origin, runId: input.runId ?? null });
  }

  edit(id: string, rawText: string, origin: MemoryOrigin, runId: string | null = null): MemoryRecord {
    const text = checkMemoryText(rawText);
    const edited = this.ledger().memory.edit(id, text, origin, runId);
    if (!edited) throw missing(id);
    return edited;
  }

  /**
   * Forgets a memory. `sessionId` (the agent's calls) limits it to what that session sees:
   * an agent cannot forget another session's memory by guessing its id, nor the user's own.
   */
  forget(id: string, origin: MemoryOrigin, sessionId?: string, runId: string | null = null): MemoryRecord {
    const memory = this.ledger().memory.get(id);
    if (!memory || (sessionId !== undefined && !visibleTo(memory, sessionId))) throw missing(id);
    // The user's memories (made or edited by them) are their instructions: the agent may not drop one on its own.
    if (origin === 'agent' && (memory.origin === 'user' || memory.editedBy === 'user')) {
      throw new AppError('invalid_input', `Memory ${id} is the user's, and only the user removes it (Memory panel). If it looks wrong or outdated, say so in your answer.`);
    }
    this.ledger().memory.forget(id, origin, runId);
    return memory;
  }

  /** The session's memories and the data root's (no session: the data root's), oldest first. */
  list(sessionId: string | null): MemoryRecord[] {
    // An unknown session is an error, not an empty list that hides a typo.
    if (sessionId) this.ledger().sessions.require(sessionId);
    return this.ledger().memory.visible(sessionId);
  }
}

function visibleTo(memory: MemoryRecord, sessionId: string): boolean {
  return memory.scope === 'data_root' || memory.sessionId === sessionId;
}

function missing(id: string): AppError {
  return new AppError('not_found', `No memory "${id}" (it may have been forgotten already). List the memories to see their ids.`);
}
