import { describe, expect, it } from 'vitest';
import { firstCodeFence } from '../../../src-main/core/engine/fences';
import { routeAction, type ToolCallRecord } from '../../../src-main/core/engine/routeAction';

const call = (id: string, name: string): ToolCallRecord => ({ id, name, rawArguments: '{}', arguments: {}, parseError: null });

describe('code fences', () => {
  it('finds the first complete python or r fence, skipping other languages', () => {
    const text = 'Plan:\n```json\n{"a": 1}\n```\nThen\n```python\nimport numpy as np\nprint(np.pi)\n```\nand\n```r\ncat(1)\n```\n';
    expect(firstCodeFence(text)).toMatchObject({ language: 'python', code: 'import numpy as np\nprint(np.pi)' });
    expect(firstCodeFence('```R\ncat(6*7)\n```')).toMatchObject({ language: 'r', code: 'cat(6*7)' });
    expect(firstCodeFence('```py\nx = 1\n```')).toMatchObject({ language: 'python', code: 'x = 1' });
  });

  it('never returns an unclosed fence', () => {
    expect(firstCodeFence('```python\nprint(1)\n')).toBeNull();
    expect(firstCodeFence('```python\nprint(1)\n``')).toBeNull();
    expect(firstCodeFence('text ```python print(1)```')).toBeNull();
  });

  it('keeps inner backticks that do not close the fence', () => {
    const fence = firstCodeFence('````python\ns = """```"""\nprint(s)\n````');
    expect(fence?.code).toBe('s = """```"""\nprint(s)');
  });
});

describe('routeAction', () => {
  it('a sole finalize_response is the final action', () => {
    expect(routeAction('', [call('1', 'finalize_response')]).kind).toBe('finalize');
  });
  it('any native calls win over code in the same reply, finalize included as a member', () => {
    const action = routeAction('```python\nprint(1)\n```', [call('1', 'web_fetch'), call('2', 'finalize_response')]);
    expect(action).toMatchObject({ kind: 'tool-batch', calls: [{ id: '1' }, { id: '2' }] });
  });
  it('else the first complete fence is a cell, else nothing', () => {
    expect(routeAction('```python\nprint(1)\n```\n```python\nprint(2)\n```', [])).toMatchObject({ kind: 'cell', fence: { code: 'print(1)' } });
    expect(routeAction('```python\nprint(1)', []).kind).toBe('none');
    expect(routeAction('Hello!', []).kind).toBe('none');
  });
});
