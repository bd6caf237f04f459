import { describe, expect, it } from 'vitest';
import { parseDotenv } from '../../../src-main/core/config/dotenv';

describe('parseDotenv', () => {
  it('reads plain, exported, quoted and commented lines', () => {
    const { values, problems } = parseDotenv(
      [
        '# a comment',
        'A=1',
        'export B = two words ',
        "C='literal $HOME \\n'",
        'D="line\\nbreak \\"q\\""',
        'E=value # trailing comment',
        'F=',
        '',
      ].join('\n'),
    );
    expect(problems).toEqual([]);
    expect(values).toEqual({
      A: '1',
      B: 'two words',
      C: 'literal $HOME \\n',
      D: 'line\nbreak "q"',
      E: 'value',
      F: '',
    });
  });

  it('reports unreadable lines by number instead of guessing', () => {
    const { values, problems } = parseDotenv('GOOD=1\nnot a pair\nBAD="open\n1X=2\n');
    expect(values).toEqual({ GOOD: '1' });
    expect(problems).toEqual([
      'line 2: expected KEY=value',
      'line 3: unterminated quote in BAD',
      'line 4: expected KEY=value',
    ]);
  });

  it('handles CRLF line ends and a byte-order mark', () => {
    expect(parseDotenv('\uFEFFA=1\r\nB=2\r\n').values).toEqual({ A: '1', B: '2' });
  });
});
