import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DoctorReport, Envelope } from '../../src-preload/contract';
import { bridge } from '../../src-renderer/src/api/bridge';
import { App } from '../../src-renderer/src/App';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage, NO_SETTINGS, recordedReport, firstRunProviders } from './support';

function renderSystem(report: DoctorReport, language: 'en-US' | 'zh-CN' = 'en-US') {
  window.openai4s = fakeBridgeApi((route): Envelope<unknown> => {
    if (route === 'session.list') return { ok: true, data: [] };
    if (route === 'settings.get') return { ok: true, data: NO_SETTINGS };
    if (route === 'provider.list') return { ok: true, data: firstRunProviders() };
    return { ok: true, data: report };
  });
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: [language] });
  render(
    <StoreProvider store={store}>
      <App />
    </StoreProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: language === 'zh-CN' ? '系统' : 'System' }));
}

afterEach(() => {
  cleanup();
  delete (window as unknown as Record<string, unknown>).openai4s;
});

describe('System page: safety layers (issue 27)', () => {
  it('shows both layers on, with how cells are reviewed', async () => {
    renderSystem({
      ...recordedReport(),
      safety: {
        biosecurity: { on: true, source: 'default', variable: 'OPENAI4S_BIOSECURITY', setting: 'default', summary: 'Biosecurity screening: on (default)' },
        cellReview: {
          on: true,
          source: 'default',
          variable: 'OPENAI4S_CELL_REVIEW',
          setting: 'default',
          summary: 'Pre-execution review of cells: on (default)',
          reviewer: 'Python cells through ast (/usr/bin/python3); R cells through the token scan',
          reviewerPath: '/usr/bin/python3',
        },
      },
    });
    const card = await screen.findByTestId('card-safety');
    expect(within(card).getByText('all on')).toBeTruthy();
    expect(within(card).getByTestId('safety-biosecurity').querySelector('.sub')!.textContent).toBe('on by default');
    expect(within(card).getByTestId('safety-reviewer').textContent).toBe('Python cells through ast (/usr/bin/python3); R cells through the token scan');
  });

  it('says how each layer is set in the window’s language (Chinese), from the fields main reports', async () => {
    renderSystem(
      {
        ...recordedReport(),
        safety: {
          biosecurity: { on: false, source: 'dotenv', variable: 'OPENAI4S_BIOSECURITY', setting: 'off', value: 'off', summary: 'English summary' },
          cellReview: { on: true, source: 'env', variable: 'OPENAI4S_CELL_REVIEW', setting: 'unrecognised', value: 'maybe', summary: 'English summary', reviewer: 'token scan only: no python', reviewerPath: null },
        },
      },
      'zh-CN',
    );
    const card = await screen.findByTestId('card-safety');
    expect(within(card).getByTestId('safety-biosecurity').textContent).toContain('已关闭（数据目录的 .env 文件中 OPENAI4S_BIOSECURITY=off）；删除该设置即可重新开启此层');
    expect(within(card).getByTestId('safety-cell-review').textContent).toContain('开启（环境变量中 OPENAI4S_CELL_REVIEW=“maybe” 不是 “off”，此层保持开启）');
    // Why the token scan reviews alone is main's own sentence (it names a path or an error).
    expect(within(card).getByTestId('safety-reviewer').textContent).toContain('token scan only: no python');
  });

  it('shows a layer turned off as off, naming the variable', async () => {
    renderSystem({
      ...recordedReport(),
      safety: {
        biosecurity: { on: false, source: 'env', variable: 'OPENAI4S_BIOSECURITY', setting: 'off', value: 'off', summary: 'Biosecurity screening: OFF (OPENAI4S_BIOSECURITY=off in the environment); remove it to turn the layer back on' },
        cellReview: { on: true, source: 'default', variable: 'OPENAI4S_CELL_REVIEW', summary: 'Pre-execution review of cells: on (default)' },
      },
    });
    const card = await screen.findByTestId('card-safety');
    expect(within(card).getByText('turned off')).toBeTruthy();
    const field = within(card).getByTestId('safety-biosecurity');
    expect(within(field).getByText('off')).toBeTruthy();
    expect(field.textContent).toContain('OPENAI4S_BIOSECURITY=off');
  });
});
