import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { EvidenceRecord } from '../../src-preload/contract/evidence';
import { EvidenceLink } from '../../src-renderer/src/components/parts/AnswerCard';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { bridge } from '../../src-renderer/src/api/bridge';
import { fakeBridgeApi, memoryStorage } from './support';

// Issue 21, item 3: a citation chip shows a human label, with the raw evidence id on hover.
const PAPER: EvidenceRecord = {
  id: 'ev_aaaaaaaaaaaaaaaa',
  sessionId: 's1',
  kind: 'retrieval',
  title: 'CRISPR-Cas9 Gene Editing for Sickle Cell Disease and β-Thalassemia',
  snippet: '',
  envelope: { database: 'bohrium_navigator', authors: ['Haydar Frangoul', 'David Altshuler'], year: 2021, journal: 'New England Journal of Medicine', doi: '10.1056/NEJMoa2031054' },
  createdAt: '2026-01-01T00:00:00Z',
};
const UNIPROT: EvidenceRecord = { ...PAPER, id: 'ev_bbbbbbbbbbbbbbbb', title: 'UniProt P01308: Insulin', envelope: { database: 'uniprot', record_id: 'P01308' } };

afterEach(() => cleanup());

describe('citation chips', () => {
  it('show the label of a loaded record and its id on hover; an unknown id shows as itself', async () => {
    window.openai4s = fakeBridgeApi((route) => (route === 'evidence.list' ? { ok: true, data: [PAPER, UNIPROT] } : { ok: true, data: null }));
    const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
    render(
      <StoreProvider store={store}>
        <EvidenceLink id={PAPER.id} />
        <EvidenceLink id={UNIPROT.id} />
        <EvidenceLink id="ev_cccccccccccccccc" />
      </StoreProvider>,
    );
    // Before the session's evidence is loaded, the ids.
    expect(screen.getAllByTestId('evidence-link').map((b) => b.textContent)).toEqual([PAPER.id, UNIPROT.id, 'ev_cccccccccccccccc']);
    await act(() => store.getState().loadEvidence('s1'));
    const chips = screen.getAllByTestId('evidence-link');
    expect(chips.map((b) => b.textContent)).toEqual(['Frangoul 2021, New England Journal of Medicine', 'UniProt P01308', 'ev_cccccccccccccccc']);
    expect(chips[0]!.getAttribute('title')).toBe(`${PAPER.id} · ${PAPER.title}`);
    expect(chips[2]!.getAttribute('title')).toBe('ev_cccccccccccccccc');
    // The id stays reachable for tests and tools whatever the chip shows.
    expect(chips.map((c) => c.getAttribute('data-evidence-id'))).toEqual([PAPER.id, UNIPROT.id, 'ev_cccccccccccccccc']);
  });
});

const CELL: EvidenceRecord = {
  ...PAPER,
  id: 'ev_dddddddddddddddd',
  kind: 'cell',
  title: 'Python cell 3 (ok)',
  envelope: { language: 'python', generation: 'g1', cell_id: 'c1', cell_number: 3, status: 'ok' },
};
const OLD_CELL: EvidenceRecord = { ...CELL, id: 'ev_eeeeeeeeeeeeeeee', title: 'R cell 2 (error)', envelope: {} };

describe('a cell run as a citation chip', () => {
  it('is named in the window’s language from its envelope; a record without those fields keeps its stored title', async () => {
    window.openai4s = fakeBridgeApi((route) => (route === 'evidence.list' ? { ok: true, data: [CELL, OLD_CELL] } : { ok: true, data: null }));
    const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['zh-CN'] });
    render(
      <StoreProvider store={store}>
        <EvidenceLink id={CELL.id} />
        <EvidenceLink id={OLD_CELL.id} />
      </StoreProvider>,
    );
    await act(() => store.getState().loadEvidence('s1'));
    expect(screen.getAllByTestId('evidence-link').map((b) => b.textContent)).toEqual(['Python 单元 3（成功）', 'R cell 2 (error)']);
    act(() => store.getState().setLanguage('en'));
    expect(screen.getAllByTestId('evidence-link').map((b) => b.textContent)).toEqual(['Python cell 3 (ok)', 'R cell 2 (error)']);
  });
});
