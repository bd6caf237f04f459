import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CellData, KernelSlotStatus } from '../../src-preload/contract';
import { bridge } from '../../src-renderer/src/api/bridge';
import { CellCard } from '../../src-renderer/src/components/parts/CellCard';
import { deathText, sandboxGapText, slotReasonText, timeLimitText } from '../../src-renderer/src/components/parts/kernelText';
import { translate, type Language } from '../../src-renderer/src/i18n/language';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { openConversation } from '../../src-renderer/src/store/conversationReducer';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

// What main says of a kernel reaches a Chinese window in Chinese when main named the case,
// and in main's own words when it did not (results recorded before the case was named).

const tr = (language: Language) => (key: Parameters<typeof translate>[1], params?: Parameters<typeof translate>[2]) => translate(language, key, params);
const zh = tr('zh-CN');
const en = tr('en');

const DIED = {
  reason: 'killed by SIGKILL',
  lost: 'The Python kernel (generation 1a2b3c4d) killed by SIGKILL; its variables, imports and open figures are gone. The next cell starts a new generation.',
  cause: { kind: 'signal' as const, signal: 'SIGKILL' },
};

afterEach(() => {
  cleanup();
  delete (window as unknown as Record<string, unknown>).openai4s;
});

describe('kernel words by case', () => {
  it('a kernel death: how it ended and what was lost, in either language; an old record keeps its words', () => {
    expect(deathText(en, DIED, 'python', '1a2b3c4d5e6f')).toEqual({
      headline: 'The Python kernel was killed by SIGKILL.',
      lost: 'Its variables, imports and open figures are gone (generation 1a2b3c4d); the next cell starts a new generation.',
    });
    const chinese = deathText(zh, DIED, 'r', '1a2b3c4d5e6f');
    expect(chinese.headline).toBe('R 内核被 SIGKILL 终止。');
    expect(chinese.lost).toContain('第 1a2b3c4d 代');
    expect(deathText(zh, { ...DIED, cause: { kind: 'interrupt_unheeded', graceMs: 2000 } }, 'python', 'g').headline).toBe('Python 内核在中断后 2 秒内未停止，已被强制结束。');
    expect(deathText(zh, { ...DIED, cause: { kind: 'exit', code: 1 } }, 'python', 'g').headline).toBe('Python 内核已退出，退出码 1。');
    expect(deathText(zh, { ...DIED, cause: { kind: 'out_of_memory', limitMiB: 8192 } }, 'python', 'g').headline).toBe(
      'Python 内核内存耗尽：其所有进程合计达到 8192 MiB 的上限（可用 OPENAI4S_KERNEL_MEMORY_MB 提高）。',
    );
    expect(deathText(en, { ...DIED, cause: { kind: 'out_of_memory', limitMiB: 8192 } }, 'r', 'g').headline).toBe(
      'The R kernel ran out of memory: its processes together reached their 8192 MiB limit (OPENAI4S_KERNEL_MEMORY_MB raises it).',
    );
    const { cause: _, ...old } = DIED;
    expect(deathText(zh, old, 'python', 'g')).toEqual({ headline: DIED.reason, lost: DIED.lost });
  });

  it('a slot: ended, shut down when idle, restarted, crash loop, session closed; no cause keeps the reason', () => {
    const slot = (over: Partial<KernelSlotStatus>): KernelSlotStatus => ({ language: 'python', state: 'none', generation: null, sandbox: null, startedAt: null, cells: 0, ...over });
    expect(slotReasonText(zh, slot({ reason: 'x', cause: { kind: 'ended', generation: 'abcdef0123456', exit: { kind: 'signal', signal: 'SIGKILL' } } }))).toBe('第 abcdef01 代内核被 SIGKILL 终止，其变量已丢失');
    expect(slotReasonText(en, slot({ cause: { kind: 'idle_shutdown', idleSeconds: 1800 } }))).toBe('Shut down after 30 min idle; its variables are gone');
    expect(slotReasonText(zh, slot({ cause: { kind: 'idle_shutdown', idleSeconds: 45 } }))).toBe('空闲 45 秒后已关闭，其变量已丢失');
    expect(slotReasonText(zh, slot({ cause: { kind: 'restarted', generation: 'abcdef0123456' } }))).toBe('已重启；第 abcdef01 代内核及其变量已丢失');
    expect(slotReasonText(zh, slot({ state: 'dead', cause: { kind: 'crash_loop', failures: 3, lastError: 'python3: not found' } }))).toBe('连续 3 次启动失败，已停止。最后的错误：python3: not found。请排除原因后重启内核。');
    expect(slotReasonText(zh, slot({ state: 'dead', cause: { kind: 'session_closed' } }))).toBe('会话已关闭，其内核已停止。');
    expect(slotReasonText(zh, slot({ reason: 'older words' }))).toBe('older words');
    expect(slotReasonText(zh, slot({}))).toBeNull();
  });

  it('why there is no sandbox, and a cell stopped by its time limit', () => {
    expect(sandboxGapText(zh, { reason: 'bubblewrap (bwrap) is not installed', gap: 'bwrap_missing' })).toMatch(/^未安装 bubblewrap.*apt-get install bubblewrap/);
    expect(sandboxGapText(zh, { reason: 'r', gap: 'bwrap_blocked', detail: 'bwrap: No permissions to create new namespace' })).toBe('bubblewrap 在本系统上无法创建命名空间（bwrap: No permissions to create new namespace）');
    expect(sandboxGapText(en, { reason: 'r', gap: 'no_backend', detail: 'win32' })).toBe('there is no kernel sandbox for win32');
    expect(sandboxGapText(zh, { reason: 'main’s words' })).toBe('main’s words');
    expect(timeLimitText(zh, { limitMs: 30 * 60_000, message: 'The cell hit its wall-clock limit of 30 min and was stopped.' })).toMatch(/^该单元达到 30 分钟的时限，已被停止。.*设置/);
    expect(timeLimitText(en, { limitMs: 90_000, message: 'x' })).toMatch(/^The cell hit its time limit of 90 s and was stopped\. Raise the limit in Settings/);
  });

  it('the cell card of a Chinese window says a death, a time limit and a missing sandbox in Chinese', () => {
    window.openai4s = fakeBridgeApi(() => ({ ok: true, data: null }));
    const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['zh-CN'] });
    store.setState({ conversation: openConversation('session-1', 1) });
    const cell: CellData = {
      language: 'python',
      code: 'import os\nos.kill(os.getpid(), 9)',
      status: 'died',
      generation: '1a2b3c4d5e6f',
      stdout: '',
      stderr: '',
      sandbox: { state: 'degraded', reason: 'bubblewrap (bwrap) is not installed (Debian: apt-get install bubblewrap)', gap: 'bwrap_missing' },
      died: DIED,
      timeLimit: { limitMs: 60_000, message: 'The cell hit its wall-clock limit of 60 s and was stopped.' },
    };
    render(
      <StoreProvider store={store}>
        <CellCard cell={cell} sessionId="session-1" />
      </StoreProvider>,
    );
    expect(screen.getByTestId('cell-died').textContent).toBe(`Python 内核被 SIGKILL 终止。 ${zh('cell.died.lost', { generation: '1a2b3c4d' })}`);
    expect(screen.getByTestId('cell-time-limit').textContent).toMatch(/^该单元达到 60 秒的时限/);
    expect(screen.getByText(/^未在沙箱中：未安装 bubblewrap/)).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/killed by|not installed|wall-clock/);
  });

  it('a cell the app did not run says so in the window’s language, with main’s reason below; a Python exception of the same name keeps its own words', () => {
    window.openai4s = fakeBridgeApi(() => ({ ok: true, data: null }));
    const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['zh-CN'] });
    store.setState({ conversation: openConversation('session-1', 1) });
    const notRun: CellData = {
      language: 'python',
      code: 'print(1)',
      status: 'error',
      stdout: '',
      stderr: '',
      error: { ename: 'KernelUnavailable', evalue: 'No Python interpreter: No python3 found. Install it or set OPENAI4S_PYTHON.', traceback: '', line: null },
    };
    const { unmount } = render(
      <StoreProvider store={store}>
        <CellCard cell={notRun} sessionId="session-1" />
      </StoreProvider>,
    );
    expect(screen.getByTestId('cell-error').querySelector('strong')!.textContent).toBe('Python 内核无法启动，此单元格没有运行');
    expect(screen.getByTestId('cell-error-detail').textContent).toContain('OPENAI4S_PYTHON');
    unmount();
    const raised: CellData = { ...notRun, error: { ename: 'Stopped', evalue: 'my own exception', traceback: 'Traceback (most recent call last):\n  File "<cell-1>", line 1', line: 1 } };
    render(
      <StoreProvider store={store}>
        <CellCard cell={raised} sessionId="session-1" />
      </StoreProvider>,
    );
    expect(screen.getByTestId('cell-error').querySelector('strong')!.textContent).toBe('Stopped: my own exception');
  });
});
