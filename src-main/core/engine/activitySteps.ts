import { dataChunk, type ActivityLabel, type ActivityLabelKey, type ThinkingStepData } from '../../../src-preload/contract/dataParts';
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

/**
 * The English words of each activity label (the step's `title`, for any AI SDK client);
 * the workbench says the same in the UI's language from the label's key and params.
 */
const ENGLISH: Record<ActivityLabelKey, string> = {
  search: 'Searching {db}',
  searchAll: 'Searching the databases',
  searchFor: 'Searching {db} for "{query}"',
  searchAllFor: 'Searching the databases for "{query}"',
  webSearch: 'Searching the web',
  webSearchFor: 'Searching the web for "{query}"',
  readPage: 'Reading a web page',
  readUrl: 'Reading {url}',
  remember: 'Remembering',
  rememberText: 'Remembering "{text}"',
  forget: 'Forgetting a memory',
  forgetId: 'Forgetting {id}',
  runTool: 'Running {tool}',
  runToolOn: 'Running {tool} ({target})',
  readFile: 'Reading {path}',
  listDir: 'Listing {path}',
  writeFile: 'Writing {path}',
  editFile: 'Editing {path}',
  readPdf: 'Reading the PDF {path}',
  searchFiles: 'Searching the files for "{pattern}"',
  loadSkill: 'Loading the skill {name}',
  saveArtifact: 'Saving {path} as an artifact',
  delegateOne: 'Starting a child agent: "{task}"',
  delegateMany: 'Starting {count} child agents',
  collectChildren: 'Waiting for the child agents’ results',
  approval: 'Waiting for your approval: {tool} → {target}',
  cell: 'Running {language} code',
  cellNumbered: '{language} cell {number}',
  answer: 'Writing the answer',
};

/** A label in English (the step's title). */
export function englishTitle(label: ActivityLabel): string {
  const params = label.params ?? {};
  return ENGLISH[label.key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** What a tool call is doing, as a label: search UniProt for "insulin", read data/x.csv. */
export function labelCall(name: string, args: unknown): ActivityLabel {
  const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  const query = str(a.query);
  switch (name) {
    case 'science_search': {
      const raw = str(a.database);
      const db = raw ? (DATABASE_NAMES[raw.toLowerCase()] ?? clip(raw, 40)) : null;
      if (db) return query ? { key: 'searchFor', params: { db, query: clip(query, 60) } } : { key: 'search', params: { db } };
      return query ? { key: 'searchAllFor', params: { query: clip(query, 60) } } : { key: 'searchAll' };
    }
    case 'web_search':
      return query ? { key: 'webSearchFor', params: { query: clip(query, 60) } } : { key: 'webSearch' };
    case 'web_fetch':
      return str(a.url) ? { key: 'readUrl', params: { url: clip(str(a.url)!) } } : { key: 'readPage' };
    case 'remember':
      return str(a.text) ? { key: 'rememberText', params: { text: clip(str(a.text)!, 60) } } : { key: 'remember' };
    case 'forget':
      return str(a.id) ? { key: 'forgetId', params: { id: clip(str(a.id)!, 60) } } : { key: 'forget' };
    case 'read_text_file':
    case 'list_dir':
    case 'write_file':
    case 'edit_file':
    case 'read_pdf':
    case 'save_artifact': {
      const path = str(a.path) ?? (name === 'list_dir' ? '.' : null);
      if (path) return { key: PATH_LABELS[name]!, params: { path: clip(path, 60) } };
      break;
    }
    case 'glob_files':
    case 'content_search':
      if (str(a.pattern)) return { key: 'searchFiles', params: { pattern: clip(str(a.pattern)!, 60) } };
      break;
    case 'load_skill':
      if (str(a.name)) return { key: 'loadSkill', params: { name: clip(str(a.name)!, 60) } };
      break;
    case 'delegate_task':
      if (Array.isArray(a.tasks)) return { key: 'delegateMany', params: { count: a.tasks.length } };
      return str(a.task) ? { key: 'delegateOne', params: { task: clip(str(a.task)!, 60) } } : { key: 'runTool', params: { tool: name } };
    case 'collect_children':
      return { key: 'collectChildren' };
  }
  const target = str(a.path) ?? query ?? str(a.name) ?? str(a.id);
  const tool = clip(name, 60);
  return target ? { key: 'runToolOn', params: { tool, target: clip(target, 60) } } : { key: 'runTool', params: { tool } };
}

/** The workspace tools a step names by the path they act on. */
const PATH_LABELS: Record<string, ActivityLabelKey> = {
  read_text_file: 'readFile',
  list_dir: 'listDir',
  write_file: 'writeFile',
  edit_file: 'editFile',
  read_pdf: 'readPdf',
  save_artifact: 'saveArtifact',
};

/** What a tool call is doing, in a few English words: `Searching UniProt for "insulin"`, `Running read_file (data/x.csv)`. */
export function describeCall(name: string, args: unknown): string {
  return englishTitle(labelCall(name, args));
}

/** A label whose values may quote the model's arguments: a key it pasted there never reaches the stream. */
function scrubLabel(label: ActivityLabel): ActivityLabel {
  if (!label.params) return label;
  return { key: label.key, params: Object.fromEntries(Object.entries(label.params).map(([k, v]) => [k, typeof v === 'string' ? scrubSecrets(v) : v])) };
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
        this.start(id, { key: 'approval', params: { tool: clip(d.tool, 60), target: clip(d.target, 60) } }, parent?.id, d.toolCallId ? { toolCallId: d.toolCallId } : {});
      } else {
        this.finish(id, d.state === 'denied' || d.state === 'expired' ? 'failed' : 'completed', [`Answer: ${d.state.replace('_', ' ')}`]);
      }
    } else if (chunk.type === 'data-cell' && 'data' in chunk) {
      // The kernel numbers a cell when it has run it: the step then names it as the notebook does.
      const cell = chunk.data as { cellNumber?: number; language?: string };
      const step = this.open.get(this.cellStepId());
      if (step && cell.cellNumber !== undefined) {
        const label: ActivityLabel = { key: 'cellNumbered', params: { language: cell.language === 'r' ? 'R' : 'Python', number: cell.cellNumber } };
        const title = englishTitle(label);
        if (step.title !== title) this.put({ ...step, title, label });
      }
    } else if (chunk.type === 'tool-input-start' && chunk.toolName === FINALIZE_TOOL && !this.answerStep) {
      this.answerStep = `act-${this.runId}-answer`;
      this.start(this.answerStep, { key: 'answer' });
    }
  }

  toolsStarted(calls: readonly ToolCallRecord[]): void {
    for (const call of calls) {
      if (QUIET_TOOLS.has(call.name) || call.parseError) continue;
      this.start(this.toolStepId(call.id), labelCall(call.name, call.arguments), this.planStep ?? undefined, { toolCallId: call.id });
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
    this.start(this.cellStepId(), { key: 'cell', params: { language: language === 'r' ? 'R' : 'Python' } }, this.planStep ?? undefined);
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

  private start(id: string, said: ActivityLabel, parentId?: string, extra: Partial<ThinkingStepData> = {}): void {
    // A title quotes the call's arguments: a key the model pasted there never reaches the stream through it.
    const label = scrubLabel(said);
    this.put({ id, title: scrubSecrets(englishTitle(label)), label, status: 'in_progress', kind: 'activity', startedAt: this.now(), ...(parentId ? { parentId } : {}), ...extra });
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
