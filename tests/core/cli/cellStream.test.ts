import { afterEach, describe, expect, it, vi } from 'vitest';
import { cellStreamPrinter } from '../../../src-main/cli/commands/cellStream';
import type { CliIO } from '../../../src-main/cli/command';
import { safeIO } from '../../../src-main/cli/terminalText';

/** An IO like the CLI's own: `out` and `err` end each call with a newline, `write` and `writeErr` are raw. */
function capture(raw = true) {
  const seen = { stdout: '', stderr: '' };
  const io: CliIO = {
    out: (t) => (seen.stdout += t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => (seen.stderr += t.endsWith('\n') ? t : `${t}\n`),
    ...(raw ? { write: (t: string) => (seen.stdout += t), writeErr: (t: string) => (seen.stderr += t) } : {}),
  };
  return { seen, io };
}

afterEach(() => vi.useRealTimers());

describe('the kernel exec output printer', () => {
  it('still redacts a key the kernel’s coalescing cut in two (it prints whole lines)', () => {
    const { seen, io } = capture();
    const printer = cellStreamPrinter(safeIO(io));
    printer.push('stdout', 'key: sk-abcdefgh');
    printer.push('stdout', 'ijklmnopqrstuv\nnext');
    printer.finish({ stdout: 'key: sk-abcdefghijklmnopqrstuv\nnext', stderr: '' });
    expect(seen.stdout).toBe('key: [redacted]\nnext\n');
  });

  it('shows a stdout line without its newline after a moment, and ends it at the cell’s end', () => {
    vi.useFakeTimers();
    const { seen, io } = capture();
    const printer = cellStreamPrinter(io);
    printer.push('stdout', 'working...');
    expect(seen.stdout).toBe('');
    vi.advanceTimersByTime(300);
    expect(seen.stdout).toBe('working...');
    printer.push('stdout', ' done');
    vi.advanceTimersByTime(300);
    printer.finish({ stdout: 'working... done', stderr: '' });
    expect(seen.stdout).toBe('working... done\n');
  });

  it('shows a stderr line without its newline after a moment, as stdout does, and ends it at the cell’s end', () => {
    vi.useFakeTimers();
    const { seen, io } = capture();
    const printer = cellStreamPrinter(io);
    printer.push('stderr', 'Warn');
    printer.push('stderr', 'ing: x\n 40%|####');
    expect(seen.stderr).toBe('Warning: x\n');
    vi.advanceTimersByTime(300);
    expect(seen.stderr).toBe('Warning: x\n 40%|####');
    // Each stream keeps its own partial line: stdout text does not flush or end stderr's.
    printer.push('stdout', 'half');
    expect(seen.stderr).toBe('Warning: x\n 40%|####');
    printer.finish({ stdout: 'half', stderr: 'Warning: x\n 40%|####' });
    expect(seen).toEqual({ stdout: 'half\n', stderr: 'Warning: x\n 40%|####\n' });
  });

  it('holds a stderr line until its newline or the cell’s end when the IO has no raw error writer', () => {
    const { seen, io } = capture();
    delete io.writeErr;
    const printer = cellStreamPrinter(io);
    printer.push('stderr', 'Warn');
    printer.push('stderr', 'ing: x\nlast');
    expect(seen.stderr).toBe('Warning: x\n');
    printer.finish({ stdout: '', stderr: 'Warning: x\nlast' });
    expect(seen.stderr).toBe('Warning: x\nlast\n');
  });

  it('prints at the end only what the result has beyond what was streamed', () => {
    const { seen, io } = capture(false);
    const printer = cellStreamPrinter(io);
    printer.push('stdout', 'a\nb\n');
    printer.push('stderr', 'oops\n');
    printer.finish({ stdout: 'a\nb\nc\n', stderr: 'oops\n[output truncated]\n' });
    expect(seen).toEqual({ stdout: 'a\nb\nc\n', stderr: 'oops\n[output truncated]\n' });
  });
});
