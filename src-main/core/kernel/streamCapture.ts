import { StringDecoder } from 'node:string_decoder';

/**
 * Reads one of the worker's output fds (1 or 2) and hands text to the current cell.
 * At the end of each cell the worker writes `\x01<marker>\x01` on both fds after flushing,
 * so the host knows it has everything the cell wrote before its `result` frame: the
 * pipes and the frame channel are separate, and their order is not otherwise defined.
 */
export class StreamCapture {
  private decoder = new StringDecoder('utf8');
  private pending = '';
  private marker: string | null = null;
  private onText: ((text: string) => void) | null = null;
  private onMarker: (() => void) | null = null;
  /** Text written between cells (a background thread, a stray child) goes to the next cell. */
  private stray = '';
  private static readonly STRAY_LIMIT = 64 * 1024;

  push(chunk: Buffer): void {
    this.feed(this.decoder.write(chunk));
  }

  end(): void {
    this.feed(this.decoder.end());
    this.flushPending(true);
  }

  /** Starts a cell: its text goes to `onText` until `marker` arrives, then `onMarker` fires. */
  begin(marker: string, onText: (text: string) => void, onMarker: () => void): void {
    this.marker = `\u0001${marker}\u0001`;
    this.onText = onText;
    this.onMarker = onMarker;
    if (this.stray) {
      const stray = this.stray;
      this.stray = '';
      onText(stray);
    }
    this.flushPending(false);
  }

  /**
   * Ends the cell without a marker: the worker saw both pipes drained before its `result`
   * (so everything the cell wrote has already been pushed here). A held tail that looked
   * like the start of a marker is the cell's text after all.
   */
  finish(): void {
    if (!this.marker) return;
    this.emit(this.pending);
    this.pending = '';
    const done = this.onMarker;
    this.marker = null;
    this.onText = null;
    this.onMarker = null;
    done?.();
  }

  /** Detaches from the cell (it ended without its marker: the worker died). */
  detach(): void {
    this.flushPending(true);
    this.marker = null;
    this.onText = null;
    this.onMarker = null;
  }

  private feed(text: string): void {
    if (text) this.pending += text;
    this.flushPending(false);
  }

  private emit(text: string): void {
    if (!text) return;
    if (this.onText) this.onText(text);
    else if (this.stray.length < StreamCapture.STRAY_LIMIT) this.stray += text.slice(0, StreamCapture.STRAY_LIMIT - this.stray.length);
  }

  private flushPending(all: boolean): void {
    for (;;) {
      if (!this.pending) return;
      if (!this.marker) {
        if (!this.onText && !all) {
          // Between cells: keep for the next one (bounded).
          this.emit(this.pending);
          this.pending = '';
          return;
        }
        this.emit(this.pending);
        this.pending = '';
        return;
      }
      const at = this.pending.indexOf(this.marker);
      if (at >= 0) {
        this.emit(this.pending.slice(0, at));
        this.pending = this.pending.slice(at + this.marker.length);
        const done = this.onMarker;
        this.marker = null;
        this.onText = null;
        this.onMarker = null;
        done?.();
        continue;
      }
      // Keep a tail that could be the start of the marker split across reads.
      // The marker begins with \x01, so only one near the end can start a split marker.
      let cut = this.pending.length;
      if (!all) {
        const nul = this.pending.indexOf('\u0001', Math.max(0, this.pending.length - (this.marker.length - 1)));
        if (nul >= 0) cut = nul;
      }
      this.emit(this.pending.slice(0, cut));
      this.pending = this.pending.slice(cut);
      return;
    }
  }
}
