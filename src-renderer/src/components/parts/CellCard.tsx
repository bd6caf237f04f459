import { useState } from 'react';
import type { CellData } from '../../../../src-preload/contract';
import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../i18n/useT';
import { IconButton } from '../ui';
import { CellTimeLimit } from './CellTimeLimit';
import { Figure } from './Figure';
import { formatSeconds } from './format';
import { deathText, sandboxGapText, timeLimitText } from './kernelText';
import { TABLE_MIME, TableOutput, parseTable } from './TableOutput';
import { formatElapsed } from './durationText';
import { useNow } from '../plan/ThinkingSteps';

/** The data of a `data-cell` part (the contract's map): first the running cell, then its result. */
export type { CellData };

export function CopyButton({ text }: { text: string }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  return (
    <IconButton
      label={t('cell.copy')}
      className="copy-btn"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        });
      }}
    >
      {copied ? t('cell.copied') : t('cell.copyShort')}
    </IconButton>
  );
}

/**
 * Streamed pieces while running (and after, when the result kept the order both streams
 * wrote in); otherwise the final stdout, then stderr.
 */
export function outputStreams(cell: CellData): { stream: 'stdout' | 'stderr'; text: string }[] {
  const ordered = cell.status !== 'running' && cell.output?.length && cell.stdout && cell.stderr;
  if (!ordered && cell.status !== 'running' && (cell.stdout !== undefined || cell.stderr !== undefined)) {
    const out: { stream: 'stdout' | 'stderr'; text: string }[] = [];
    if (cell.stdout) out.push({ stream: 'stdout', text: cell.stdout });
    if (cell.stderr) out.push({ stream: 'stderr', text: cell.stderr });
    return out;
  }
  const merged: { stream: 'stdout' | 'stderr'; text: string }[] = [];
  for (const o of cell.output ?? []) {
    const last = merged[merged.length - 1];
    if (last && last.stream === o.stream) last.text += o.text;
    else merged.push({ ...o });
  }
  return merged;
}

const TONE: Record<CellData['status'], string> = {
  running: 'neutral',
  ok: 'ok',
  error: 'bad',
  interrupted: 'warn',
  died: 'bad',
};

/** A running cell's clock: the time since it was sent to the kernel, ticking each second. */
function RunningFor({ startedAt }: { startedAt: string }) {
  const t = useT();
  const now = useNow(true);
  const start = Date.parse(startedAt);
  if (Number.isNaN(start)) return null;
  return (
    <span className="muted mono" aria-hidden="true" data-testid="cell-running-for">
      {t('cell.runningFor', { time: formatElapsed(Math.max(0, now - start), t) })}
    </span>
  );
}

/** Errors the app itself records for a cell it did not run (no traceback: no code ran). */
const APP_ERRORS = ['KernelUnavailable', 'Stopped', 'NotApproved', 'Refused', 'InvalidSetting'] as const;
type AppErrorName = (typeof APP_ERRORS)[number];
function appMade(error: { ename: string; traceback?: string | null }): boolean {
  return !error.traceback && (APP_ERRORS as readonly string[]).includes(error.ename);
}

/** A code cell: its code, streamed output, figures and values, error with the failing line. */
export function CellCard({
  cell,
  sessionId,
  compact,
}: {
  cell: CellData;
  sessionId: string;
  compact?: boolean;
}) {
  const t = useT();
  const streams = outputStreams(cell);
  const figures = (cell.displays ?? []).filter((d) => d.path);
  const values = (cell.displays ?? []).filter((d) => !d.path && d.data['text/plain']);
  const errorLines = cell.error?.line ? new Set([cell.error.line]) : null;
  return (
    <section
      className={`cell-card tone-${TONE[cell.status]}`}
      data-testid="cell-card"
      data-status={cell.status}
    >
      <header className="cell-head">
        <span className="cell-lang">{t(cell.language === 'r' ? 'cell.r' : 'cell.python')}</span>
        {cell.cellNumber ? (
          <span className="muted">{t('cell.number', { number: cell.cellNumber })}</span>
        ) : null}
        <span className={`pill pill-${TONE[cell.status]}`}>
          {cell.status === 'running' ? (
            <span className="spinner spinner-sm" aria-hidden="true" />
          ) : null}
          {t(`cell.status.${cell.status}` as MessageKey)}
        </span>
        {cell.status === 'running' && cell.startedAt ? <RunningFor startedAt={cell.startedAt} /> : null}
        {cell.usage ? (
          <span className="muted">
            {t('cell.wall', { seconds: formatSeconds(cell.usage.wallMs) })}
          </span>
        ) : null}
        {cell.sandbox?.state === 'degraded' ? (
          <span className="pill pill-warn">
            {t('cell.sandboxDegraded', { reason: sandboxGapText(t, cell.sandbox) })}
          </span>
        ) : null}
        <CellTimeLimit cell={cell} />
        <span className="grow" />
        <CopyButton text={cell.code} />
      </header>
      <pre className="cell-code" data-testid="cell-code">
        {cell.code.split('\n').map((line, i) => (
          <span key={i} className={errorLines?.has(i + 1) ? 'code-line error-line' : 'code-line'}>
            <span className="line-no" aria-hidden="true">
              {i + 1}
            </span>
            {line}
            {'\n'}
          </span>
        ))}
      </pre>
      {streams.length > 0 ? (
        <div className="cell-output" data-testid="cell-output">
          {streams.map((s, i) => (
            <pre key={i} className={`stream stream-${s.stream}`}>
              {compact && s.text.length > 4000 ? `${s.text.slice(0, 4000)}\n…` : s.text}
            </pre>
          ))}
        </div>
      ) : null}
      {values.map((d, i) => {
        // A DataFrame comes with its data as a table (never the kernel's HTML); else its text.
        const table = parseTable(d.data[TABLE_MIME]);
        return table ? (
          <TableOutput key={i} table={table} />
        ) : (
          <pre key={i} className="cell-value">
            {d.data['text/plain']}
          </pre>
        );
      })}
      {figures.map((d) => (
        <Figure key={d.path} path={d.path!} svgPath={d.svgPath} pdfPath={d.pdfPath} sessionId={sessionId} />
      ))}
      {cell.error ? (
        <div className="cell-error" role="note" data-testid="cell-error">
          {appMade(cell.error) ? (
            <>
              <strong>{t(`cell.appError.${cell.error.ename as AppErrorName}`, { language: t(`kernel.language.${cell.language}`) })}</strong>
              <p className="muted small" data-testid="cell-error-detail">{cell.error.evalue}</p>
            </>
          ) : (
            <strong>
              {cell.error.ename}: {cell.error.evalue}
            </strong>
          )}
          {cell.error.line ? (
            <span className="muted"> · {t('cell.line', { line: cell.error.line })}</span>
          ) : null}
          {cell.error.traceback ? <pre>{cell.error.traceback}</pre> : null}
        </div>
      ) : null}
      {cell.timeLimit ? (
        <div className="cell-error" role="note" data-testid="cell-time-limit">
          <strong>{timeLimitText(t, cell.timeLimit)}</strong>
        </div>
      ) : null}
      {cell.died ? <CellDeath died={cell.died} language={cell.language} generation={cell.generation} /> : null}
      {cell.truncated ? <p className="muted small">{t('cell.truncated')}</p> : null}
    </section>
  );
}

/** The kernel's death under a cell: how it ended, and what that cost. */
function CellDeath({ died, language, generation }: { died: NonNullable<CellData['died']>; language: CellData['language']; generation: string | undefined }) {
  const t = useT();
  const { headline, lost } = deathText(t, died, language, generation);
  return (
    <div className="cell-error" role="note" data-testid="cell-died">
      <strong>{headline}</strong> <span>{lost}</span>
    </div>
  );
}
