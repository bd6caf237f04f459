/**
 * Splits `<think>...</think>` out of streamed answer text (DeepSeek-R1 distills,
 * Qwen3 on Ollama, some Doubao endpoints put reasoning inline). Tags may be cut
 * anywhere across deltas, so a possible tag prefix at the end of a delta is held
 * back until the next delta decides it. Nothing is lost: every character ends up
 * in exactly one of text or reasoning, except the tags themselves and the
 * whitespace that separates `</think>` from the answer.
 *
 * Why not the AI SDK's `extractReasoningMiddleware` (ai 6.0): measured against
 * tests/core/llm/thinkSplitter.test.ts it keeps the layout whitespace after `</think>`
 * ("\n\nThe answer is 42."), joins the text around a block with a "\n" separator
 * ("Intro \n done"), and drops a possible tag prefix still held when the text ends
 * ("answer <" loses its "<"). It is also an async stream transform, where this is a
 * synchronous step inside StreamNormalizer.
 */

const OPEN = '<think>';
const CLOSE = '</think>';

export interface SplitPiece {
  kind: 'text' | 'reasoning';
  text: string;
}

/** Length of the longest suffix of `s` that is a proper prefix of `tag`. */
function partialTagSuffix(s: string, tag: string): number {
  const max = Math.min(s.length, tag.length - 1);
  for (let n = max; n > 0; n--) {
    if (tag.startsWith(s.slice(s.length - n))) return n;
  }
  return 0;
}

export class ThinkSplitter {
  private inThink = false;
  private held = '';
  /** Whitespace right after `</think>` is layout, not answer; drop it until real text arrives. */
  private trimLeading = false;

  push(delta: string): SplitPiece[] {
    const out: SplitPiece[] = [];
    let buf = this.held + delta;
    this.held = '';
    for (;;) {
      const tag = this.inThink ? CLOSE : OPEN;
      const at = buf.indexOf(tag);
      if (at === -1) {
        const keep = partialTagSuffix(buf, tag);
        this.emit(out, buf.slice(0, buf.length - keep));
        this.held = buf.slice(buf.length - keep);
        return out;
      }
      this.emit(out, buf.slice(0, at));
      buf = buf.slice(at + tag.length);
      this.inThink = !this.inThink;
      if (!this.inThink) this.trimLeading = true;
    }
  }

  /** End of stream: a held partial tag was just text (or reasoning, inside an unclosed block). */
  flush(): SplitPiece[] {
    const out: SplitPiece[] = [];
    this.emit(out, this.held);
    this.held = '';
    return out;
  }

  private emit(out: SplitPiece[], text: string): void {
    if (!this.inThink && this.trimLeading) {
      const trimmed = text.replace(/^\s+/, '');
      if (trimmed === '') return;
      this.trimLeading = false;
      text = trimmed;
    }
    if (text === '') return;
    const kind = this.inThink ? 'reasoning' : 'text';
    const last = out[out.length - 1];
    if (last && last.kind === kind) last.text += text;
    else out.push({ kind, text });
  }
}
