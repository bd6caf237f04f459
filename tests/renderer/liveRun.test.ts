import { describe, expect, it } from 'vitest';
import type { ThinkingStepData, UIPart } from '../../src-preload/contract';
import { withoutCellFences, cellCodesOf } from '../../src-renderer/src/components/parts/cellFences';
import { toolSummary } from '../../src-renderer/src/components/parts/toolSummary';
import { deniedBy } from '../../src-renderer/src/components/parts/ApprovalCard';
import { shortcutOf, type KeyLike } from '../../src-renderer/src/components/layout/shortcuts';
import { stepTitle } from '../../src-renderer/src/components/plan/stepTitle';
import { translate, type Params } from '../../src-renderer/src/i18n/language';
import type { MessageKey } from '../../src-renderer/src/i18n/messages';

const en = (key: MessageKey, params?: Params) => translate('en', key, params);
const zh = (key: MessageKey, params?: Params) => translate('zh-CN', key, params);

describe('the live step line', () => {
  const step = (over: Partial<ThinkingStepData>): ThinkingStepData => ({ id: 's', title: 'Searching UniProt for "insulin"', status: 'in_progress', kind: 'activity', ...over });

  it("words an activity step in the UI's language from its label, and falls back to the title", () => {
    const search = step({ label: { key: 'searchFor', params: { db: 'UniProt', query: 'insulin human' } } });
    expect(stepTitle(search, en)).toBe('Searching UniProt for "insulin human"');
    expect(stepTitle(search, zh)).toBe('正在 UniProt 中检索“insulin human”');
    expect(stepTitle(step({ label: { key: 'cell', params: { language: 'R' } } }), zh)).toBe('正在运行 R 单元');
    expect(stepTitle(step({ label: { key: 'cellNumbered', params: { language: 'Python', number: 3 } } }), en)).toBe('Python cell 3');
    expect(stepTitle(step({ label: { key: 'approval', params: { tool: 'web_fetch', target: 'https://x.org' } } }), zh)).toBe('等待你的批准：web_fetch → https://x.org');
    // A plan step (the model's words) and a step from an older ledger keep their title.
    expect(stepTitle(step({ kind: 'plan', title: 'Fit the curve' }), zh)).toBe('Fit the curve');
    expect(stepTitle(step({}), zh)).toBe('Searching UniProt for "insulin"');
  });
});

describe('tool cards', () => {
  it('say what was asked: database and query, URL, path', () => {
    expect(toolSummary('science_search', { database: 'uniprot', query: 'insulin human', limit: 3 })).toBe('uniprot · “insulin human”');
    expect(toolSummary('web_fetch', { url: 'https://www.rcsb.org/structure/4INS' })).toBe('https://www.rcsb.org/structure/4INS');
    expect(toolSummary('read_file', { path: 'data/chains.csv' })).toBe('data/chains.csv');
    expect(toolSummary('web_search', { query: 'insulin' })).toBe('“insulin”');
    expect(toolSummary('write_todos', { todos: [] })).toBeNull();
  });

  it('say who denied a call', () => {
    const approval = { requestId: 'r', origin: 'tool' as const, tool: 'web_fetch', target: 'x', reason: '' };
    expect(deniedBy({ ...approval, state: 'denied', answeredBy: 'user' }, undefined)).toBe('user');
    expect(deniedBy({ ...approval, state: 'denied', answeredBy: 'headless' }, undefined)).toBe('headless');
    expect(deniedBy({ ...approval, state: 'expired' }, undefined)).toBe('expired');
    const hostCall = { origin: 'tool' as const, method: 'web_fetch', tool: 'web_fetch', target: 'x', status: 'denied' as const, durationMs: 1 };
    expect(deniedBy(undefined, { ...hostCall, decidedBy: 'rule' })).toBe('rule');
    expect(deniedBy(undefined, { ...hostCall, decidedBy: 'refused' })).toBe('unknown');
  });
});

describe("a cell's code appears once", () => {
  const cell = (code: string): UIPart => ({ type: 'data-cell', id: 'c', data: { language: 'python', code, status: 'ok' } }) as UIPart;

  it('drops the fence that became a cell and keeps the rest of the text and other fences', () => {
    const code = "print('hi')\nx = 1";
    const text = ['Let me compute.', '', '```python', code, '```', '', 'Then:', '', '```json', '{"a": 1}', '```'].join('\n');
    const out = withoutCellFences(text, cellCodesOf([cell(code)]));
    expect(out).not.toContain("print('hi')");
    expect(out).toContain('Let me compute.');
    expect(out).toContain('```json\n{"a": 1}\n```');
  });

  it('keeps a fence still being written and one that did not become a cell', () => {
    const codes = cellCodesOf([cell('x = 1')]);
    expect(withoutCellFences('Now:\n```python\nx = 1', codes)).toBe('Now:\n```python\nx = 1');
    expect(withoutCellFences('```python\ny = 2\n```', codes)).toBe('```python\ny = 2\n```');
  });
});

describe('keyboard shortcuts', () => {
  const key = (over: Partial<KeyLike>): KeyLike => ({ key: '', code: '', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, typing: false, isMac: false, ...over });

  it('map the global keys, with Cmd for Ctrl on macOS', () => {
    expect(shortcutOf(key({ key: 'O', code: 'KeyO', ctrlKey: true, shiftKey: true }))).toEqual({ action: 'newSession' });
    expect(shortcutOf(key({ key: 'o', code: 'KeyO', metaKey: true, shiftKey: true, isMac: true }))).toEqual({ action: 'newSession' });
    expect(shortcutOf(key({ key: 'o', code: 'KeyO', ctrlKey: true, shiftKey: true, isMac: true }))).toBeNull();
    expect(shortcutOf(key({ key: '.', code: 'Period', ctrlKey: true }))).toEqual({ action: 'stop' });
    expect(shortcutOf(key({ key: 'b', code: 'KeyB', ctrlKey: true }))).toEqual({ action: 'sidebar' });
    expect(shortcutOf(key({ key: 'B', code: 'KeyB', ctrlKey: true, shiftKey: true }))).toEqual({ action: 'panel' });
    expect(shortcutOf(key({ key: '¡', code: 'Digit2', altKey: true }))).toEqual({ action: 'tab', tab: 'evidence' });
    expect(shortcutOf(key({ key: 'Escape', code: 'Escape', shiftKey: true }))).toEqual({ action: 'focusComposer' });
  });

  it('leave single keys to a text field being typed in', () => {
    expect(shortcutOf(key({ key: '/', code: 'Slash' }))).toEqual({ action: 'focusComposer' });
    expect(shortcutOf(key({ key: '/', code: 'Slash', typing: true }))).toBeNull();
    expect(shortcutOf(key({ key: '?', code: 'Slash', shiftKey: true, typing: true }))).toBeNull();
    expect(shortcutOf(key({ key: '/', code: 'Slash', ctrlKey: true, typing: true }))).toEqual({ action: 'help' });
  });
});
