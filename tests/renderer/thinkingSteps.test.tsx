import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ThinkingStepData } from '../../src-preload/contract';
import { ThinkingSteps } from '../../src-renderer/src/components/plan/ThinkingSteps';
import {
  currentStep,
  stepElapsedMs,
  stepTree,
} from '../../src-renderer/src/components/plan/stepTree';
import { bridge } from '../../src-renderer/src/api/bridge';
import { formatElapsed, formatSecondsShort } from '../../src-renderer/src/components/parts/durationText';
import { translate } from '../../src-renderer/src/i18n/language';
import type { MessageKey } from '../../src-renderer/src/i18n/messages';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

function renderSteps(steps: ThinkingStepData[], live = true) {
  window.openai4s = fakeBridgeApi(() => ({ ok: true, data: null }));
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  return render(
    <StoreProvider store={store}>
      <ThinkingSteps steps={steps} live={live} />
    </StoreProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('stepTree', () => {
  it('nests sub-steps under their parent and keeps orphans and cycles as roots', () => {
    const steps: ThinkingStepData[] = [
      { id: 'a', title: 'A', status: 'completed' },
      { id: 'a1', title: 'A1', status: 'completed', parentId: 'a' },
      { id: 'b', title: 'B', status: 'in_progress', parentId: 'missing' },
      { id: 'x', title: 'X', status: 'pending', parentId: 'y' },
      { id: 'y', title: 'Y', status: 'pending', parentId: 'x' },
    ];
    const tree = stepTree(steps);
    const ids = (nodes: ReturnType<typeof stepTree>): unknown[] =>
      nodes.map((n) => (n.children.length ? [n.step.id, ids(n.children)] : n.step.id));
    // x→y is attached, y→x would close the cycle so y stays a root holding x.
    expect(ids(tree)).toEqual([['a', ['a1']], 'b', ['y', ['x']]]);
  });

  it('measures a step to its finish, or to now while it runs', () => {
    const running: ThinkingStepData = { id: 's', title: 'S', status: 'in_progress', startedAt: '2026-01-01T00:00:00.000Z' };
    expect(stepElapsedMs(running, Date.parse('2026-01-01T00:01:05.000Z'))).toBe(65_000);
    expect(stepElapsedMs({ ...running, finishedAt: '2026-01-01T00:00:03.000Z' }, Date.now())).toBe(3000);
    expect(stepElapsedMs({ id: 's', title: 'S', status: 'pending' }, Date.now())).toBeNull();
  });

  it('says a span of time in the window’s language', () => {
    const en = (key: MessageKey, params?: Record<string, string | number>) => translate('en', key, params);
    const zh = (key: MessageKey, params?: Record<string, string | number>) => translate('zh-CN', key, params);
    expect(formatElapsed(4_900, en)).toBe('4 s');
    expect(formatElapsed(65_000, en)).toBe('1 min 05 s');
    expect(formatElapsed(3_725_000, en)).toBe('1 h 02 min');
    expect(formatElapsed(65_000, zh)).toBe('1 分 05 秒');
    expect(formatElapsed(3_725_000, zh)).toBe('1 小时 02 分');
    expect(formatSecondsShort(420, zh)).toBe('0.4 秒');
    expect(formatSecondsShort(12_000, en)).toBe('12 s');
  });

  it('names the last running step as the current one', () => {
    expect(
      currentStep([
        { id: 'a', title: 'A', status: 'in_progress' },
        { id: 'b', title: 'B', status: 'in_progress', parentId: 'a' },
        { id: 'c', title: 'C', status: 'pending' },
      ])?.id,
    ).toBe('b');
    expect(currentStep([{ id: 'a', title: 'A', status: 'completed' }])).toBeNull();
  });
});

describe('ThinkingSteps', () => {
  it('shows each status, the items and sub-steps, and ticks the running step', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:10.000Z'));
    renderSteps([
      { id: 'p1', title: 'Search UniProt', status: 'completed', kind: 'plan', startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:02.000Z', items: ['Query: insulin'] },
      { id: 'p2', title: 'Fit the curve', status: 'in_progress', kind: 'plan', startedAt: '2026-01-01T00:00:05.000Z' },
      { id: 'p2a', title: 'Running cell 3', status: 'in_progress', parentId: 'p2', startedAt: '2026-01-01T00:00:08.000Z' },
      { id: 'p3', title: 'Write the answer', status: 'pending', kind: 'plan' },
      { id: 'p4', title: 'Fetch PDB', status: 'failed' },
    ]);
    const lines = screen.getAllByTestId('thinking-step');
    expect(lines.map((l) => l.getAttribute('data-status'))).toEqual(['completed', 'in_progress', 'in_progress', 'pending', 'failed']);
    expect(screen.getByText('Query: insulin')).toBeTruthy();
    // The sub-step sits inside its parent's line.
    expect(within(lines[1]!).getByText('Running cell 3')).toBeTruthy();
    expect(within(lines[0]!).getByTestId('step-elapsed').textContent).toBe('2 s');
    expect(within(lines[2]!).getByTestId('step-elapsed').textContent).toBe('2 s');
    expect(within(lines[3]!).queryByTestId('step-elapsed')).toBeNull();
    act(() => {
      vi.advanceTimersByTime(3000);
    });
    expect(within(lines[2]!).getByTestId('step-elapsed').textContent).toBe('5 s');
    expect(within(lines[0]!).getByTestId('step-elapsed').textContent).toBe('2 s');
  });

  it('shows a step its ended run left running as stalled: no spinner, no clock', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:10.000Z'));
    const { container } = renderSteps([{ id: 'p1', title: 'Fit the curve', status: 'in_progress', kind: 'plan', startedAt: '2026-01-01T00:00:00.000Z' }], false);
    const line = screen.getByTestId('thinking-step');
    expect(line.className).toContain('step-stalled');
    expect(container.querySelector('.spinner')).toBeNull();
    expect(within(line).queryByTestId('step-elapsed')).toBeNull();
  });
});

describe('activity steps in the UI language', () => {
  const steps: ThinkingStepData[] = [
    { id: 'a', title: 'Searching UniProt for "insulin"', status: 'in_progress', kind: 'activity', label: { key: 'searchFor', params: { db: 'UniProt', query: 'insulin' } } },
    { id: 'b', title: 'Python cell 3', status: 'completed', kind: 'activity', label: { key: 'cellNumbered', params: { language: 'Python', number: 3 } } },
    { id: 'p', title: '检查胰岛素结构', status: 'pending', kind: 'plan' },
  ];

  function renderIn(language: string) {
    window.openai4s = fakeBridgeApi(() => ({ ok: true, data: null }));
    const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: [language] });
    return render(
      <StoreProvider store={store}>
        <ThinkingSteps steps={steps} live />
      </StoreProvider>,
    );
  }

  it('says an activity step from its label in Chinese, and keeps the agent’s own plan words', () => {
    renderIn('zh-CN');
    const titles = screen.getAllByTestId('thinking-step').map((li) => li.querySelector('.step-title')!.textContent);
    expect(titles).toEqual(['正在 UniProt 中检索“insulin”', 'Python 单元 3', '检查胰岛素结构']);
  });

  it('says the same words as the stream title in English', () => {
    renderIn('en-US');
    const titles = screen.getAllByTestId('thinking-step').map((li) => li.querySelector('.step-title')!.textContent);
    expect(titles).toEqual(steps.map((s) => s.title));
  });
});
