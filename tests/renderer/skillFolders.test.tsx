import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope, SettingsView } from '../../src-preload/contract';
import { bridge } from '../../src-renderer/src/api/bridge';
import { SkillFoldersSection } from '../../src-renderer/src/components/settings/SkillFoldersSection';
import type { SaveSettings } from '../../src-renderer/src/components/settings/saveSettings';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

// Issue 17: extra skill folders are added and removed in Settings (settings.update skillFolders).
function view(skillFolders: string[] | undefined): SettingsView {
  return {
    settings: { defaultProvider: null, defaultModel: null, sandboxMode: null, ...(skillFolders ? { skillFolders } : {}) },
    keys: [],
    keyStorage: { available: false, reason: 'test' },
    dataDir: '/data',
    dataDirSource: 'default',
    activeSandboxMode: 'auto',
  };
}

async function renderSection(initial: string[] | undefined) {
  let folders = initial;
  const api = fakeBridgeApi((route, input): Envelope<unknown> => {
    if (route === 'settings.update') folders = (input as { skillFolders: string[] }).skillFolders;
    return { ok: true, data: view(folders) };
  });
  window.openai4s = api;
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  await store.getState().loadSettings();
  const save: SaveSettings = async (patch) => {
    await store.getState().updateSettings(patch);
  };
  render(
    <StoreProvider store={store}>
      <SkillFoldersSection save={save} />
    </StoreProvider>,
  );
  return api;
}

afterEach(() => {
  cleanup();
  delete (window as unknown as Record<string, unknown>).openai4s;
});

describe('skill folders in Settings', () => {
  it('renders (once, no render loop) when no folder was ever set', async () => {
    await renderSection(undefined);
    expect(screen.getByTestId('skill-folders').children).toHaveLength(0);
    expect(screen.getByTestId('skill-folder-add')).toBeTruthy();
  });

  it('adds an absolute folder and removes one, through settings.update', async () => {
    const api = await renderSection(['/opt/skills-a']);
    expect(screen.getByTestId('skill-folders').textContent).toContain('/opt/skills-a');
    fireEvent.change(screen.getByTestId('skill-folder-input'), { target: { value: '/home/me/collection' } });
    fireEvent.click(screen.getByTestId('skill-folder-add'));
    await waitFor(() => expect(screen.getByTestId('skill-folders').textContent).toContain('/home/me/collection'));
    expect(api.calls.filter((c) => c.route === 'settings.update').at(-1)!.input).toEqual({ skillFolders: ['/opt/skills-a', '/home/me/collection'] });
    fireEvent.click(screen.getAllByRole('button', { name: 'Remove' })[0]!);
    await waitFor(() => expect(screen.getByTestId('skill-folders').textContent).not.toContain('/opt/skills-a'));
    expect(api.calls.filter((c) => c.route === 'settings.update').at(-1)!.input).toEqual({ skillFolders: ['/home/me/collection'] });
  });

  it('refuses a relative path or a folder already listed, saying why, and saves nothing', async () => {
    const api = await renderSection(['/opt/skills-a']);
    fireEvent.change(screen.getByTestId('skill-folder-input'), { target: { value: 'skills' } });
    fireEvent.click(screen.getByTestId('skill-folder-add'));
    expect(screen.getByRole('alert').textContent).toMatch(/whole path/);
    fireEvent.change(screen.getByTestId('skill-folder-input'), { target: { value: '/opt/skills-a' } });
    fireEvent.click(screen.getByTestId('skill-folder-add'));
    expect(screen.getByRole('alert').textContent).toMatch(/already in the list/);
    expect(api.calls.filter((c) => c.route === 'settings.update')).toEqual([]);
  });
});
