import type { Ledger } from '../ledger/ledger';

/** What the ledger knows for certain about a run's state: never left to a model's summary. */
export interface LedgerFacts {
  /** `python generation 2 (id …, running since …)` per language; `none started` when no kernel ran. */
  activeKernelGeneration: string;
  /** `path vN (version id, sha256 prefix)`: the newest version of each artifact of the session. */
  artifacts: string[];
  /** `tool × count` of the run's calls, cells included, with failures. */
  calls: string[];
  /** `sha256 (source, bytes)` of the run's archived results. */
  archived: string[];
}

export type FactsLedger = Pick<Ledger, 'kernels' | 'actions' | 'provenance' | 'archive'>;

const short = (iso: string) => iso.replace('T', ' ').slice(0, 19);

/**
 * The facts of a session and run. `calls` and `archived` read every action of the run, so
 * they are asked for only when a compaction is written, not on every turn's render.
 */
export function ledgerFacts(ledger: FactsLedger, sessionId: string, runId: string, options: { history?: boolean } = {}): LedgerFacts {
  const latest = new Map<string, ReturnType<FactsLedger['kernels']['listBySession']>[number]>();
  for (const g of ledger.kernels.listBySession(sessionId)) {
    const seen = latest.get(g.language);
    if (!seen || g.generation > seen.generation) latest.set(g.language, g);
  }
  const kernels = [...latest.values()].map((g) =>
    g.endedAt
      ? `${g.language} generation ${g.generation} (id ${g.id}) ended ${short(g.endedAt)}${g.endReason ? ` (${g.endReason})` : ''}: its variables are gone; the next cell starts a new generation`
      : `${g.language} generation ${g.generation} (id ${g.id}), running since ${short(g.startedAt)}: its variables are live`,
  );

  const index = ledger.provenance.artifacts;
  const artifacts = index.artifacts(sessionId).flatMap((a) => {
    const versions = index.versions(a.id);
    const v = versions[versions.length - 1];
    return v ? [`${a.path} v${v.number} (${v.id}, sha256 ${v.sha256.slice(0, 12)}, ${v.size} bytes, evidence ${v.evidenceId})`] : [];
  });

  const counts = new Map<string, { n: number; failed: number }>();
  for (const group of options.history ? ledger.actions.listByRun(runId) : []) {
    for (const e of group.events) {
      const name = group.kind === 'cell' ? `${e.name} cell` : e.name;
      const c = counts.get(name) ?? { n: 0, failed: 0 };
      c.n++;
      if (e.isError) c.failed++;
      counts.set(name, c);
    }
  }
  const calls = [...counts].map(([name, c]) => `${name} × ${c.n}${c.failed ? ` (${c.failed} failed)` : ''}`);

  const archived = (options.history ? ledger.archive.resultsBySession(sessionId) : [])
    .filter((r) => r.runId === runId)
    .map((r) => `${r.sha256} (${r.source}, ${r.bytes} bytes)`);

  return { activeKernelGeneration: kernels.length ? kernels.join('; ') : 'none started in this session', artifacts, calls, archived };
}
