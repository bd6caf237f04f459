import { Fragment, useEffect, useRef, useState } from 'react';
import type { UIMessage } from '../../../../src-preload/contract';
import type { EvidenceRecord } from '../../../../src-preload/contract/evidence';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { isDataPart } from '../parts/dataPart';
import type { MessageKey } from '../../i18n/messages';
import { formatBytes } from '../parts/format';
import { evidenceFacts } from './evidenceFacts';
import { BibliographyExport } from './BibliographyExport';
import { cellStatusText, evidenceTitle } from '../parts/evidenceText';
import { envelopeErrorText } from '../../errors/envelopeText';

/** The evidence ids the session's answers cite, in first-cited order. */
function citedIds(messages: readonly UIMessage[]): string[] {
  const ids = new Set<string>();
  for (const m of messages)
    for (const p of m.parts) {
      if (!isDataPart(p, 'answer')) continue;
      for (const c of p.data.claims) for (const id of c.evidence) ids.add(id);
    }
  return [...ids];
}

function Hash({ value }: { value: string }) {
  return (
    <dd className="mono" title={value} data-testid="evidence-sha256">
      {value.slice(0, 16)}…
    </dd>
  );
}

function EvidenceItem({
  record,
  id,
  focused,
}: {
  record: EvidenceRecord | undefined;
  id: string;
  focused: boolean;
}) {
  const t = useT();
  const language = useAppStore((s) => s.language);
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (focused) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [focused]);
  const facts = evidenceFacts(record);
  const time = (iso: string) =>
    new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium' }).format(
      new Date(iso),
    );
  return (
    <li
      ref={ref}
      className={`evidence-item${focused ? ' focused' : ''}`}
      data-testid="evidence-item"
      data-evidence-id={id}
      data-kind={facts.kind ?? undefined}
    >
      <div className="evidence-head">
        <span className="mono evidence-id">{id}</span>
        <span className="evidence-tags">
          {facts.kind ? (
            <span className="muted small">{t(`panel.evidence.kind.${facts.kind}` as MessageKey)}</span>
          ) : null}
          {facts.source ? (
            <span className="pill pill-neutral" data-testid="evidence-source">
              {facts.source}
            </span>
          ) : null}
        </span>
      </div>
      {record ? (
        <>
          <p className="evidence-title">{evidenceTitle(record, t)}</p>
          {record.snippet ? <p className="muted small evidence-snippet">{record.snippet}</p> : null}
          <dl className="evidence-meta">
            {facts.link ? (
              <>
                <dt>{t('panel.evidence.record')}</dt>
                <dd className="mono" data-testid="evidence-link-url">
                  {facts.link}
                </dd>
              </>
            ) : null}
            {facts.requests.map((r, i) => (
              <Fragment key={i}>
                <dt>{t('panel.evidence.source')}</dt>
                <dd className="mono" data-testid="evidence-request">
                  {r.method && r.method !== 'GET' ? `${r.method} ` : ''}
                  {r.url}
                </dd>
                {r.retrievedAt ? (
                  <>
                    <dt>{t('panel.evidence.time')}</dt>
                    <dd data-testid="evidence-time">
                      {t('panel.evidence.retrieved', { time: time(r.retrievedAt) })}
                      {r.cached ? ` · ${t('panel.evidence.cached')}` : ''}
                    </dd>
                  </>
                ) : null}
                {r.status !== null || r.bytes !== null ? (
                  <>
                    <dt>{t('panel.evidence.response')}</dt>
                    <dd>
                      {[r.status !== null ? `HTTP ${r.status}` : '', r.bytes !== null ? formatBytes(r.bytes) : '']
                        .filter(Boolean)
                        .join(' · ')}
                    </dd>
                  </>
                ) : null}
                {r.sha256 ? (
                  <>
                    <dt>{t('panel.evidence.hash')}</dt>
                    <Hash value={r.sha256} />
                  </>
                ) : null}
              </Fragment>
            ))}
            {facts.path ? (
              <>
                <dt>{t('panel.evidence.path')}</dt>
                <dd className="mono">{facts.path}</dd>
              </>
            ) : null}
            {facts.sha256 ? (
              <>
                <dt>{t('panel.evidence.hash')}</dt>
                <Hash value={facts.sha256} />
              </>
            ) : null}
            {facts.generation ? (
              <>
                <dt>{t('panel.evidence.generation')}</dt>
                <dd className="mono" title={facts.generation} data-testid="evidence-generation">
                  {facts.generation.slice(0, 8)}
                  {facts.status ? ` · ${cellStatusText(facts.status, t)}` : ''}
                </dd>
              </>
            ) : null}
            {facts.requests.length === 0 && facts.createdAt ? (
              <>
                <dt>{t('panel.evidence.time')}</dt>
                <dd data-testid="evidence-time">
                  {t('panel.evidence.recorded', { time: time(facts.createdAt) })}
                </dd>
              </>
            ) : null}
          </dl>
        </>
      ) : null}
    </li>
  );
}

/** References (cited by the answers) and All results (everything the session retrieved). */
export function EvidenceTab() {
  const t = useT();
  const conv = useAppStore((s) => s.conversation);
  const evidence = useAppStore((s) => s.evidence);
  const load = useAppStore((s) => s.loadEvidence);
  const fetchOne = useAppStore((s) => s.fetchEvidence);
  const focused = useAppStore((s) => s.focusedEvidence);
  // Until the user picks one: References once an answer cites something, else everything retrieved so far.
  const [picked, setTab] = useState<'used' | 'all' | null>(null);
  const sessionId = conv?.sessionId;
  useEffect(() => {
    if (sessionId && evidence.sessionId !== sessionId) void load(sessionId);
  }, [sessionId, evidence.sessionId, load]);
  useEffect(() => {
    if (focused) setTab('used');
  }, [focused]);
  // A citation clicked after the list was loaded may name a record the list lacks.
  const missing =
    sessionId && focused && evidence.sessionId === sessionId && evidence.status === 'ready'
      ? !evidence.data.some((r) => r.id === focused)
      : false;
  useEffect(() => {
    if (missing && sessionId && focused) void fetchOne(sessionId, focused);
  }, [missing, sessionId, focused, fetchOne]);
  if (!conv) return null;
  const byId = new Map(evidence.data.map((r) => [r.id, r]));
  const cited = citedIds(conv.fold.messages);
  const tab = picked ?? (cited.length ? 'used' : 'all');
  const ids = tab === 'used' ? cited : evidence.data.map((r) => r.id);
  return (
    <div className="evidence-tab">
      <div className="segmented small" role="tablist">
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'used'}
          className={tab === 'used' ? 'active' : undefined}
          onClick={() => setTab('used')}
        >
          {t('panel.evidence.used')} · {cited.length}
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'all'}
          className={tab === 'all' ? 'active' : undefined}
          onClick={() => setTab('all')}
        >
          {t('panel.evidence.all')} · {evidence.data.length}
        </button>
      </div>
      <BibliographyExport sessionId={conv.sessionId} />
      {evidence.status === 'error' ? (
        <p className="panel-empty error-text">{envelopeErrorText(t, evidence.error)}</p>
      ) : null}
      {ids.length === 0 ? (
        <p className="panel-empty muted">{t('panel.evidence.empty')}</p>
      ) : null}
      <ul className="evidence-list">
        {ids.map((id) => (
          <EvidenceItem key={id} id={id} record={byId.get(id)} focused={focused === id} />
        ))}
      </ul>
    </div>
  );
}
