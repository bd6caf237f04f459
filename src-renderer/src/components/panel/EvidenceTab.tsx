import { useEffect, useRef, useState } from 'react';
import type { DataUIPart } from '../../../../src-preload/contract';
import type { EvidenceRecord } from '../../../../src-preload/contract/evidence';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { asAnswer } from '../parts/AnswerCard';
import { isRecord } from '../parts/format';

/** The evidence ids the session's answers cite, in first-cited order. */
function citedIds(messages: readonly { parts: readonly { type: string }[] }[]): string[] {
  const ids = new Set<string>();
  for (const m of messages)
    for (const p of m.parts) {
      if (p.type !== 'data-answer') continue;
      const answer = asAnswer((p as DataUIPart).data);
      for (const c of answer?.claims ?? []) for (const id of c.evidence) ids.add(id);
    }
  return [...ids];
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
  const env = record && isRecord(record.envelope) ? record.envelope : {};
  const source = typeof env.database === 'string' ? env.database : record?.kind;
  const url =
    typeof env.request_url === 'string'
      ? env.request_url
      : typeof env.url === 'string'
        ? env.url
        : null;
  const when = typeof env.retrieved_at === 'string' ? env.retrieved_at : record?.createdAt;
  const sha = typeof env.sha256 === 'string' ? env.sha256 : null;
  return (
    <li
      ref={ref}
      className={`evidence-item${focused ? ' focused' : ''}`}
      data-testid="evidence-item"
      data-evidence-id={id}
    >
      <div className="evidence-head">
        <span className="mono evidence-id">{id}</span>
        {source ? <span className="pill pill-neutral">{source}</span> : null}
      </div>
      {record ? (
        <>
          <p className="evidence-title">{record.title}</p>
          {record.snippet ? <p className="muted small evidence-snippet">{record.snippet}</p> : null}
          <dl className="evidence-meta">
            {url ? (
              <>
                <dt>{t('panel.evidence.source')}</dt>
                <dd className="mono">{url}</dd>
              </>
            ) : null}
            {when ? (
              <>
                <dt>⏱</dt>
                <dd>
                  {t('panel.evidence.retrieved', {
                    time: new Intl.DateTimeFormat(language, {
                      dateStyle: 'medium',
                      timeStyle: 'short',
                    }).format(new Date(when)),
                  })}
                </dd>
              </>
            ) : null}
            {sha ? (
              <>
                <dt>{t('panel.evidence.hash')}</dt>
                <dd className="mono" title={sha}>
                  {sha.slice(0, 16)}…
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
  const focused = useAppStore((s) => s.focusedEvidence);
  const [tab, setTab] = useState<'used' | 'all'>('used');
  const sessionId = conv?.sessionId;
  useEffect(() => {
    if (sessionId && evidence.sessionId !== sessionId) void load(sessionId);
  }, [sessionId, evidence.sessionId, load]);
  useEffect(() => {
    if (focused) setTab('used');
  }, [focused]);
  if (!conv) return null;
  const byId = new Map(evidence.items.map((r) => [r.id, r]));
  const cited = citedIds(conv.fold.messages);
  const ids = tab === 'used' ? cited : evidence.items.map((r) => r.id);
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
          {t('panel.evidence.all')} · {evidence.items.length}
        </button>
      </div>
      {evidence.status === 'unavailable' ? (
        <p className="panel-empty muted">{t('panel.evidence.unavailable')}</p>
      ) : null}
      {evidence.status === 'error' ? (
        <p className="panel-empty error-text">{evidence.error}</p>
      ) : null}
      {ids.length === 0 && evidence.status !== 'unavailable' ? (
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
