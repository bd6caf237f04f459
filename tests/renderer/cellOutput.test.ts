import { describe, expect, it } from 'vitest';
import { outputStreams, type CellData } from '../../src-renderer/src/components/parts/CellCard';

const base: CellData = { language: 'python', code: 'x', status: 'ok' };

describe('cell output as shown', () => {
  it('keeps the order both streams wrote in when the result kept it', () => {
    const cell: CellData = {
      ...base,
      stdout: 'a\nc\n',
      stderr: 'b\n',
      output: [
        { stream: 'stdout', text: 'a\n' },
        { stream: 'stderr', text: 'b\n' },
        { stream: 'stdout', text: 'c\n' },
      ],
    };
    expect(outputStreams(cell).map((o) => o.text)).toEqual(['a\n', 'b\n', 'c\n']);
  });

  it('shows stdout then stderr when the order was not kept, and merges streamed pieces while running', () => {
    expect(outputStreams({ ...base, stdout: 'out\n', stderr: 'err\n' })).toEqual([
      { stream: 'stdout', text: 'out\n' },
      { stream: 'stderr', text: 'err\n' },
    ]);
    const running: CellData = { ...base, status: 'running', output: [{ stream: 'stdout', text: 'a' }, { stream: 'stdout', text: 'b' }] };
    expect(outputStreams(running)).toEqual([{ stream: 'stdout', text: 'ab' }]);
  });
});
