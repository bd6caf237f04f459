import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArtifactVersion } from '../../src-preload/contract/artifacts';
import { RecordChip } from '../../src-renderer/src/components/parts/DataParts';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { bridge } from '../../src-renderer/src/api/bridge';
import { fakeBridgeApi, memoryStorage } from './support';

// An output of a cell that did not end ok is marked as such (issue 14, item 3).
const VERSION: ArtifactVersion = {
  id: 'av_aaaaaaaaaaaaaaaa',
  artifactId: 'art_aaaaaaaaaaaaaaaa',
  sessionId: 's1',
  number: 1,
  path: 'figures/fit.png',
  sha256: '0'.repeat(64),
  size: 10,
  mime: 'image/png',
  createdAt: '2026-01-01T00:00:00Z',
  provenance: { producer: { kind: 'cell', cellId: 'c1', generation: 'g1', language: 'python' }, environment: { status: 'missing', language: 'python', reason: 'test' }, inputEvidence: [], created_at: '2026-01-01T00:00:00Z' },
  evidenceId: 'ev_aaaaaaaaaaaaaaaa',
};

function renderChip(version: ArtifactVersion) {
  window.openai4s = fakeBridgeApi(() => ({ ok: true, data: null }));
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  render(
    <StoreProvider store={store}>
      <RecordChip part={{ type: 'data-artifact', id: version.id, data: version }} />
    </StoreProvider>,
  );
}

afterEach(() => cleanup());

describe('artifacts from a failed cell', () => {
  it('are marked, with the reason on hover', () => {
    renderChip({ ...VERSION, cellOutcome: { status: 'error', error: 'ValueError: the fit did not converge' } });
    const badge = screen.getByTestId('failed-cell-badge');
    expect(badge.textContent).toBe('from a failed cell');
    expect(badge.getAttribute('title')).toBe('ValueError: the fit did not converge');
  });

  it('are not marked when the cell ended ok or the outcome is not known yet', () => {
    renderChip({ ...VERSION, cellOutcome: { status: 'ok' } });
    renderChip(VERSION);
    expect(screen.queryByTestId('failed-cell-badge')).toBeNull();
  });
});
