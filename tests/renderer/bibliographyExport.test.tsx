import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BibliographyExport } from '../../src-renderer/src/components/panel/BibliographyExport';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { bridge } from '../../src-renderer/src/api/bridge';
import { fakeBridgeApi, memoryStorage } from './support';

// Issue 21, item 4: the Evidence tab exports the session's literature as BibTeX or RIS.
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function renderExport(answer: (input: { format: string }) => { text: string; count: number }) {
  const api = fakeBridgeApi((route, input) => (route === 'evidence.bibliography' ? { ok: true, data: { format: (input as { format: string }).format, ...answer(input as { format: string }) } } : { ok: true, data: null }));
  window.openai4s = api;
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  render(
    <StoreProvider store={store}>
      <BibliographyExport sessionId="s1" />
    </StoreProvider>,
  );
  return api;
}

describe('bibliography export in the Evidence tab', () => {
  it('asks for the chosen format and saves it as a .bib / .ris download', async () => {
    const saved: { name: string; type: string }[] = [];
    const blobs: Blob[] = [];
    // jsdom has no object URLs or downloads: record what would be saved.
    Object.assign(URL, { createObjectURL: (b: Blob) => (blobs.push(b), `blob:${blobs.length}`), revokeObjectURL: () => undefined });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, type: blobs.at(-1)!.type });
    });
    const api = renderExport(({ format }) => ({ text: format === 'bibtex' ? '@article{Frangoul2021,}' : 'TY  - JOUR\r\nER  - \r\n', count: 1 }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'BibTeX' })));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'RIS' })));
    expect(api.calls.filter((c) => c.route === 'evidence.bibliography').map((c) => c.input)).toEqual([
      { sessionId: 's1', format: 'bibtex' },
      { sessionId: 's1', format: 'ris' },
    ]);
    expect(saved).toEqual([
      { name: 'references-s1.bib', type: 'application/x-bibtex;charset=utf-8' },
      { name: 'references-s1.ris', type: 'application/x-research-info-systems;charset=utf-8' },
    ]);
    // jsdom's Blob has no text(): read it as a FileReader would.
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blobs[0]!);
    });
    expect(text).toBe('@article{Frangoul2021,}');
  });

  it('says so when there is nothing to export, and saves nothing', async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderExport(() => ({ text: '', count: 0 }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'BibTeX' })));
    expect(screen.getByRole('status').textContent).toMatch(/No literature in this session to export yet/);
    expect(click).not.toHaveBeenCalled();
  });
});
