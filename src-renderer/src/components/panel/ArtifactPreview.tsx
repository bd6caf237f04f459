import { useEffect, useState } from 'react';
import type { ErrorBody } from '../../../../src-preload/contract';
import type { ArtifactBytes, ArtifactVersion } from '../../../../src-preload/contract/artifacts';
import { toErrorBody } from '../../api/bridge';
import { envelopeErrorText } from '../../errors/envelopeText';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { formatBytes } from '../parts/format';
import { PdfPreview } from './PdfPreview';
import { StructureViewer } from './StructureViewer';

const PREVIEW_BYTES = 2 * 1024 * 1024;
const TABLE_ROWS = 200;

type Kind = 'image' | 'table' | 'fasta' | 'pdb' | 'cif' | 'text' | 'pdf' | 'none';

export function previewKind(path: string, mime: string): Kind {
  const ext = path.toLowerCase().split('.').pop() ?? '';
  if (
    mime === 'image/png' ||
    mime === 'image/jpeg' ||
    mime === 'image/svg+xml' ||
    mime === 'image/gif' ||
    mime === 'image/webp'
  )
    return 'image';
  if (ext === 'pdf' || mime === 'application/pdf') return 'pdf';
  if (['csv', 'tsv'].includes(ext) || mime === 'text/csv' || mime === 'text/tab-separated-values')
    return 'table';
  if (['fasta', 'fa', 'faa', 'fna'].includes(ext)) return 'fasta';
  if (ext === 'pdb' || mime === 'chemical/x-pdb') return 'pdb';
  if (ext === 'cif' || ext === 'mmcif' || mime === 'chemical/x-mmcif') return 'cif';
  if (
    mime.startsWith('text/') ||
    mime === 'application/json' ||
    ['txt', 'md', 'json', 'log', 'py', 'r'].includes(ext)
  )
    return 'text';
  return 'none';
}

function decode(b: ArtifactBytes): string {
  const bin = atob(b.base64);
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

/** Splits CSV/TSV with quoted fields (RFC 4180 enough for a preview). */
export function parseDelimited(text: string, delimiter: string, maxRows = TABLE_ROWS): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length && rows.length < maxRows; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if ((field !== '' || row.length) && rows.length < maxRows) rows.push([...row, field]);
  return rows;
}

function Table({ text, tsv }: { text: string; tsv: boolean }) {
  const [head, ...body] = parseDelimited(text, tsv ? '\t' : ',');
  return (
    <div className="md-table preview-table">
      <table>
        <thead>
          <tr>
            {head?.map((h, i) => (
              <th key={i}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {body.map((r, i) => (
            <tr key={i}>
              {r.map((c, j) => (
                <td key={j}>{c}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Fasta({ text }: { text: string }) {
  return (
    <pre className="code-block fasta">
      {text.split('\n').map((line, i) => (
        <span key={i} className={line.startsWith('>') ? 'fasta-header' : undefined}>
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

/** A preview of one artifact version by kind: image, table, FASTA, 3D structure, PDF or text. */
export function ArtifactPreview({ version }: { version: ArtifactVersion }) {
  const t = useT();
  const read = useAppStore((s) => s.readArtifact);
  const kind = previewKind(version.path, version.mime);
  const [bytes, setBytes] = useState<
    { id: string; data: ArtifactBytes } | { id: string; error: ErrorBody } | null
  >(null);

  useEffect(() => {
    if (kind === 'none' || kind === 'pdf') return;
    let live = true;
    read(version.id, PREVIEW_BYTES).then(
      (data) => live && setBytes({ id: version.id, data }),
      (e: unknown) => live && setBytes({ id: version.id, error: toErrorBody(e) }),
    );
    return () => {
      live = false;
    };
  }, [version.id, kind, read]);

  if (kind === 'pdf') return <PdfPreview version={version} />;
  if (kind === 'none')
    return <p className="muted small">{t('panel.artifacts.noPreview', { mime: version.mime })}</p>;
  if (!bytes || bytes.id !== version.id) return <span className="spinner" aria-hidden="true" />;
  if ('error' in bytes) return <p className="error-text small">{envelopeErrorText(t, bytes.error)}</p>;
  const b = bytes.data;
  const note = b.truncated ? (
    <p className="muted small">
      {t('panel.artifacts.truncated', { size: formatBytes(PREVIEW_BYTES) })}
    </p>
  ) : null;
  if (kind === 'image')
    return (
      <img
        className="preview-image"
        src={`data:${b.mime};base64,${b.base64}`}
        alt={version.path}
        data-testid="artifact-image"
      />
    );
  const text = decode(b);
  return (
    <div className="artifact-preview" data-kind={kind}>
      {note}
      {kind === 'table' ? (
        <Table
          text={text}
          tsv={version.path.toLowerCase().endsWith('.tsv') || b.mime.includes('tab-separated')}
        />
      ) : null}
      {kind === 'fasta' ? <Fasta text={text} /> : null}
      {kind === 'pdb' || kind === 'cif' ? <StructureViewer text={text} format={kind} /> : null}
      {kind === 'text' ? <pre className="code-block">{text}</pre> : null}
    </div>
  );
}
