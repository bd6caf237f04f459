/**
 * A PDF artifact in the Artifacts tab (issue 25): its pages counted, saved under its own
 * name, and shown through the PNG the same cell drew (matplotlib writes both); never loaded
 * into a frame or plugin.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ArtifactSummary, ArtifactVersion, Envelope } from '../../src-preload/contract';
import { bridge } from '../../src-renderer/src/api/bridge';
import { ArtifactPreview, previewKind } from '../../src-renderer/src/components/panel/ArtifactPreview';
import { pdfPageCount } from '../../src-renderer/src/components/panel/PdfPreview';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

const SESSION = 'session-pdf';
const PDF_TEXT = '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >> endobj\n3 0 obj << /Type /Page >> endobj\n4 0 obj << /Type/Page >> endobj\n%%EOF\n';

function version(id: string, p: string, mime: string): ArtifactVersion {
  return {
    id, artifactId: `art_${id}`, sessionId: SESSION, number: 1, path: p, sha256: 'a'.repeat(64), size: 10, mime, createdAt: 't',
    provenance: { producer: { kind: 'cell', cellId: 'c', generation: 'g', language: 'python' }, environment: { status: 'missing', language: 'python', reason: 'test' }, inputEvidence: [], created_at: 't' },
    evidenceId: 'ev_1',
  };
}

const PDF = version('av_pdf', 'figures/counts.pdf', 'application/pdf');
const PNG = version('av_png', 'figures/counts.png', 'image/png');
const summary = (v: ArtifactVersion): ArtifactSummary => ({ id: v.artifactId, sessionId: SESSION, path: v.path, versions: 1, latest: v });

async function renderPdf(withTwin: boolean) {
  const answer = (route: string, input: unknown): Envelope<unknown> => {
    if (route === 'artifact.list') return { ok: true, data: withTwin ? [summary(PNG), summary(PDF)] : [summary(PDF)] };
    if (route === 'artifact.read') {
      const { versionId } = input as { versionId: string };
      return versionId === PDF.id
        ? { ok: true, data: { versionId, mime: 'application/pdf', size: PDF_TEXT.length, base64: btoa(PDF_TEXT), truncated: false } }
        : { ok: true, data: { versionId, mime: 'image/png', size: 4, base64: 'iVBORw==', truncated: false } };
    }
    return { ok: false, error: { code: 'internal', message: `no ${route} in this test` } };
  };
  const api = fakeBridgeApi(answer);
  window.openai4s = api;
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  await store.getState().loadArtifacts(SESSION);
  render(
    <StoreProvider store={store}>
      <ArtifactPreview version={PDF} />
    </StoreProvider>,
  );
  return api;
}

afterEach(() => {
  cleanup();
  delete (window as unknown as Record<string, unknown>).openai4s;
});

describe('PDF artifacts', () => {
  it('counts pages (not the page tree), and names a PDF by extension or type', () => {
    expect(pdfPageCount(PDF_TEXT)).toBe(2);
    expect(pdfPageCount('%PDF-1.5 compressed object streams only')).toBeNull();
    expect(previewKind('a/b.PDF', 'application/octet-stream')).toBe('pdf');
    expect(previewKind('report', 'application/pdf')).toBe('pdf');
  });

  it('shows the figure through its PNG twin, says its pages, and saves the PDF under its name', async () => {
    await renderPdf(true);
    await waitFor(() => expect(screen.getByTestId('pdf-pages').textContent).toContain('PDF document, 2 pages.'));
    expect((await screen.findByTestId('pdf-twin-image')).getAttribute('src')).toBe('data:image/png;base64,iVBORw==');
    expect(screen.getByTestId('pdf-preview').textContent).toContain('Shown from its PNG, figures/counts.png');
    expect(document.querySelector('iframe, embed, object')).toBeNull();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('counts.pdf');
      expect(this.href).toBe(`data:application/pdf;base64,${btoa(PDF_TEXT)}`);
    });
    fireEvent.click(screen.getByTestId('pdf-save'));
    expect(click).toHaveBeenCalledTimes(1);
    click.mockRestore();
  });

  it('a PDF without a PNG twin is described and saved, not drawn', async () => {
    await renderPdf(false);
    await waitFor(() => expect(screen.getByTestId('pdf-pages').textContent).toContain('2 pages'));
    expect(screen.queryByTestId('pdf-twin-image')).toBeNull();
  });
});
