/**
 * Joins OpenAI Chat Completions text deltas that arrived together into one event, before
 * the AI SDK parses them. The SDK spends ~15 µs of main-process CPU on each event (JSON
 * parse, an async zod validation, a round of web-stream promises), whatever its size; a
 * model that streams faster than the app reads (a local server, a burst after a stall)
 * hands it hundreds of one-token events per read, and the main thread (the UI's, in
 * Electron) then lags. Events that arrived in the same piece and differ only in their
 * text are one event with the texts concatenated: the fold, the ledger (which merges
 * deltas within a commit anyway) and the window see the same text. Nothing waits for
 * more: only what is already in the piece is joined, so a slow stream passes through
 * event by event, byte for byte.
 *
 * Only plain events are joined: one `data: {json}` line, one choice, no finish reason,
 * no logprobs, no usage, no tool calls, and a delta whose only text is `content`,
 * `reasoning_content` or `reasoning`. Anything else, and any event with a field this
 * list does not know, passes through unchanged and ends the run it interrupts.
 */

/** Top-level fields a joinable event may carry besides `choices`; `obfuscation` is padding and is not compared. */
const TOP_FIELDS = new Set(['id', 'object', 'created', 'model', 'system_fingerprint', 'service_tier', 'obfuscation', 'usage']);
const CHOICE_FIELDS = new Set(['index', 'delta', 'logprobs', 'finish_reason']);
const TEXT_FIELDS = ['content', 'reasoning_content', 'reasoning'] as const;
type TextField = (typeof TEXT_FIELDS)[number];

interface Joinable {
  /** The event with its text emptied (and its padding dropped): events with the same one join. */
  signature: string;
  event: Record<string, unknown> & { choices: [{ delta: Record<string, unknown> }] };
  field: TextField;
  text: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The event's text and signature, or null when it is not a plain text delta. */
function joinable(line: string): Joinable | null {
  if (!line.startsWith('data: {') || line.includes('\n') || line.includes('\r')) return null;
  let event: unknown;
  try {
    event = JSON.parse(line.slice(6));
  } catch {
    return null;
  }
  if (!isRecord(event)) return null;
  for (const key in event) if (!TOP_FIELDS.has(key) && key !== 'choices') return null;
  if (event.usage != null) return null;
  const choices = event.choices;
  if (!Array.isArray(choices) || choices.length !== 1 || !isRecord(choices[0])) return null;
  const choice = choices[0];
  for (const key in choice) if (!CHOICE_FIELDS.has(key)) return null;
  if (choice.finish_reason != null || choice.logprobs != null || !isRecord(choice.delta)) return null;
  const delta = choice.delta;
  let field: TextField | null = null;
  for (const key in delta) {
    const value = delta[key];
    if ((TEXT_FIELDS as readonly string[]).includes(key) && typeof value === 'string') {
      if (field) return null; // two texts in one delta: leave it alone
      field = key as TextField;
    } else if (!(key === 'role' && typeof value === 'string') && value !== null) return null;
  }
  if (!field) return null;
  const text = delta[field] as string;
  const { obfuscation: _padding, ...rest } = event;
  const signature = JSON.stringify({ ...rest, choices: [{ ...choice, delta: { ...delta, [field]: '' } }] });
  return { signature, event: event as Joinable['event'], field, text };
}

/**
 * `piece` (decoded SSE text, whole lines) with each run of joinable events that share a
 * signature written as one event. Events are the text between blank lines (`\n\n`); what
 * follows the last blank line (an event still arriving) is left as it is.
 */
export function joinTextDeltas(piece: string): string {
  let out = '';
  let at = 0;
  let run: { first: Joinable; raw: string; texts: string[] } | null = null;
  const flush = () => {
    if (!run) return;
    if (run.texts.length === 1) out += run.raw;
    else {
      const { first } = run;
      const delta = { ...first.event.choices[0].delta, [first.field]: run.texts.join('') };
      out += `data: ${JSON.stringify({ ...first.event, choices: [{ ...first.event.choices[0], delta }] })}\n\n`;
    }
    run = null;
  };
  for (let end = piece.indexOf('\n\n', at); end >= 0; end = piece.indexOf('\n\n', at)) {
    const raw = piece.slice(at, end + 2);
    at = end + 2;
    const next = joinable(raw.slice(0, -2));
    if (next && run && run.first.signature === next.signature) {
      run.texts.push(next.text);
      continue;
    }
    flush();
    if (next) run = { first: next, raw, texts: [next.text] };
    else out += raw;
  }
  flush();
  return out + piece.slice(at);
}
