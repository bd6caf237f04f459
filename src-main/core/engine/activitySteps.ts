import { dataChunk, type ThinkingStepData } from '../../../src-preload/contract/dataParts';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import type { ToolResult } from './ports';
import { FINALIZE_TOOL, type ToolCallRecord } from './routeAction';
import { scrubSecrets } from '../security/secrets';

/** Tools whose calls are the plan or the catalogue itself: no activity step of their own. */
const QUIET_TOOLS = new Set(['write_todos', 'update_plan_step', 'find_tools', FINALIZE_TOOL]);

const DATABASE_NAMES: Record<string, string> = {
  uniprot: 'UniProt',
  pdb: 'RCSB PDB',
  rcsb: 'RCSB PDB',
  chembl: 'ChEMBL',
  pubchem: 'PubChem',
  arxiv: 'arXiv',
  openalex: 'OpenAlex',
  pubmed: 'PubMed',
  ncbi: 'NCBI',
  ensembl: 'Ensembl',
};

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const clip = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

type StepLabel = NonNullable<ThinkingStepData['label']>;

/** The same as describeCall, as a message key and its values: the UI words it in its own language. */
export function labelCall(name: string, args: unknown): StepLabel {
  const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  const query = str(a.query);
  switch (name) {
    case 'science_search': {
      const db = str(a.database);
      const database = db ? (DATABASE_NAMES[db.toLowerCase()] ?? db) : '';
      return { key: 'search', params: { database, query: query ? clip(query, 60) : '' } };
    }
    case 'web_search':
      return { key: 'webSearch', params: { query: query ? clip(query, 60) : '' } };
    case 'web_fetch':
      return { key: 'fetch', params: { url: str(a.url) ? clip(str(a.url)!) : '' } };
    case 'remember':
      return { key: 'remember', params: { text: str(a.text) ? clip(str(a.text)!, 60) : '' } };
    case 'forget':
      return { key: 'forget', params: { id: str(a.id) ?? '' } };
    default: {
      const target = str(a.path) ?? query ?? str(a.name) ?? str(a.id);
      return target ? { key: 'toolOn', params: { name, target: clip(target, 60) } } : { key: 'tool', params: { name } };
    }
  }
}

/** What a tool call is doing, in a few words: `Searching UniProt for "insulin"`, `Reading data/x.csv`. */
export function describeCall(name: string, args: unknown): string {
  const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  const query = str(a.query);
  switch (name) {
    case 'science_search': {
      const db = str(a.database);
      const label = db ? (DATABASE_NAMES[db.toLowerCase()] ?? db) : 'the databases';
      return query ? `Searching ${label} for "${clip(query, 60)}"` : `Searching ${label}`;
    }
    case 'web_search':
      return query ? `Searching the web for "${clip(query, 60)}"` : 'Searching the web';
    case 'web_fetch':
      return str(a.url) ? `Reading ${clip(str(a.url)!)}` : 'Reading a web page';
    case 'remember':
      return str(a.text) ? `Remembering "${clip(str(a.text)!, 60)}"` : 'Remembering';
    case 'forget':
      return `Forgetting ${str(a.id) ?? 'a memory'}`;
    default: {
      const target = str(a.path) ?? query ?? str(a.name) ?? str(a.id);
      return target ? `Running ${name} (${clip(target, 60)})` : `Running ${name}`;
    }
  }
}

/**
 * What the engine is doing now, as `data-thinking-step` parts of kind `activity`: one step
 * per tool call and cell (started and finished with times), a sub-step while a call waits
 * for the user's approval, and "Writing the answer" while finalize_response streams. When
 * the model keeps a plan, each activity nests under the plan step in progress, so the tree
 * reads "2. Fit the curve → Running cell 3". The user always sees what is happening now.
 */
export class ActivitySteps {
  private readonly open = new Map<string, ThinkingStepData>();
  /** The plan step in progress, seen on the stream (write_todos / update_plan_step). */
  private planStep: string | null = null;
  private cells = 0;
  private answerStep: string | null = null;

  constructor(
    private readonly emit: (chunk: StreamChunk) => void,
    private readonly runId: string,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  /** Sees each chunk the run emits (plan steps, approvals, cells, the answer's tool call). */
  observe(chunk: StreamChunk): void {
    if (chunk.type === 'data-thinking-step' && 'data' in chunk) {
      const step = chunk.data as ThinkingStepData;
      if (step.kind !== 'plan') return;
      if (step.status === 'in_progress') this.planStep = step.id;
      else if (this.planStep === step.id) this.planStep = null;
    } else if (chunk.type === 'data-approval' && 'data' in chunk) {
      const d = chunk.data as { requestId: string; state: string; tool: string; target: string; toolCallId?: string; origin?: string };
      const id = `wait-${d.requestId}`;
      if (d.state === 'requested') {
        // Under the tool call that asked, or under the running cell whose host call asked.
        const parent = d.toolCallId ? this.open.get(this.toolStepId(d.toolCallId)) : d.origin === 'cell' ? this.open.get(this.cellStepId()) : undefined;
        const label: StepLabel = { key: 'approval', params: { tool: d.tool, target: clip(d.target, 60) } };
        this.start(id, `Waiting for your approval: ${d.tool} → ${clip(d.target, 60)}`, parent?.id, { label, ...(d.toolCallId ? { toolCallId: d.toolCallId } : {}) });
      } else {
        this.finish(id, d.state === 'denied' || d.state === 'expired' ? 'failed' : 'completed', [`Answer: ${d.state.replace('_', ' ')}`]);
      }
    } else if (chunk.type === 'data-cell' && 'data' in chunk) {
      // The kernel numbers a cell when it has run it: the step then names it as the notebook does.
      const cell = chunk.data as { cellNumber?: number; language?: string };
      const step = this.open.get(this.cellStepId());
      const language = cell.language === 'r' ? 'R' : 'Python';
      const title = cell.cellNumber === undefined ? null : `${language} cell ${cell.cellNumber}`;
      if (step && title && step.title !== title) this.put({ ...step, title, label: { key: 'cellNumber', params: { language, number: String(cell.cellNumber) } } });
    } else if (chunk.type === 'tool-input-start' && chunk.toolName === FINALIZE_TOOL && !this.answerStep) {
      this.answerStep = `act-${this.runId}-answer`;
      this.start(this.answerStep, 'Writing the answer', undefined, { label: { key: 'answer' } });
    }
  }

  toolsStarted(calls: readonly ToolCallRecord[]): void {
    for (const call of calls) {
      if (QUIET_TOOLS.has(call.name) || call.parseError) continue;
      this.start(this.toolStepId(call.id), describeCall(call.name, call.arguments), this.planStep ?? undefined, { toolCallId: call.id, label: labelCall(call.name, call.arguments) });
    }
  }

  toolEnded(result: ToolResult): void {
    const id = this.toolStepId(result.toolCallId);
    if (!this.open.has(id)) return;
    const note = result.denied ? ['Denied'] : result.isError ? [clip(result.content.split('\n')[0] ?? 'failed', 160)] : undefined;
    this.finish(id, result.isError || result.denied ? 'failed' : 'completed', note);
  }

  cellStarted(language: 'python' | 'r'): void {
    this.cells++;
    const name = language === 'r' ? 'R' : 'Python';
    this.start(this.cellStepId(), `Running a${language === 'r' ? 'n' : ''} ${name} cell`, this.planStep ?? undefined, { label: { key: 'cell', params: { language: name } } });
  }

  cellEnded(ok: boolean): void {
    this.finish(this.cellStepId(), ok ? 'completed' : 'failed');
  }

  /** The answer was accepted (completed) or refused (failed: the model will try again). */
  answerEnded(accepted: boolean): void {
    if (!this.answerStep) return;
    this.finish(this.answerStep, accepted ? 'completed' : 'failed');
    this.answerStep = null;
  }

  /** The run ended: whatever still runs ended with it (failed unless the run completed). */
  closeAll(completed: boolean): void {
    for (const id of [...this.open.keys()]) this.finish(id, completed ? 'completed' : 'failed');
  }

  private toolStepId(toolCallId: string): string {
    return `act-${toolCallId}`;
  }

  private cellStepId(): string {
    return `act-${this.runId}-cell${this.cells}`;
  }

  private start(id: string, title: string, parentId?: string, extra: Partial<ThinkingStepData> = {}): void {
    // A title quotes the call's arguments: a key the model pasted there never reaches the stream through it.
    const label = extra.label ? { ...extra.label, ...(extra.label.params ? { params: Object.fromEntries(Object.entries(extra.label.params).map(([k, v]) => [k, scrubSecrets(v)])) } : {}) } : undefined;
    this.put({ id, title: scrubSecrets(title), status: 'in_progress', kind: 'activity', startedAt: this.now(), ...(parentId ? { parentId } : {}), ...extra, ...(label ? { label } : {}) });
  }

  private finish(id: string, status: 'completed' | 'failed', items?: string[]): void {
    const step = this.open.get(id);
    if (!step) return;
    this.open.delete(id);
    this.emit(dataChunk('thinking-step', id, { ...step, status, finishedAt: this.now(), ...(items?.length ? { items } : {}) }));
  }

  private put(step: ThinkingStepData): void {
    this.open.set(step.id, step);
    this.emit(dataChunk('thinking-step', step.id, step));
  }
}
