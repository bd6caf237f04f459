import { describe, expect, it } from 'vitest';
import { activityLabelKeys, dataChunk, type ThinkingStepData } from '../../../src-preload/contract/dataParts';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import { ActivitySteps, describeCall, englishTitle, labelCall } from '../../../src-main/core/engine/activitySteps';
import { translate } from '../../../src-renderer/src/i18n/language';

/** The steps as the fold would keep them: the last snapshot of each id, in first-seen order. */
function latest(chunks: StreamChunk[]): ThinkingStepData[] {
  const byId = new Map<string, ThinkingStepData>();
  for (const c of chunks) if (c.type === 'data-thinking-step' && 'data' in c) byId.set((c.data as ThinkingStepData).id, c.data as ThinkingStepData);
  return [...byId.values()];
}

function harness() {
  const chunks: StreamChunk[] = [];
  let tick = 0;
  const now = () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)).toISOString();
  const steps = new ActivitySteps((c) => chunks.push(c), 'run-1', now);
  // What the loop does: every chunk of the run is emitted, then observed.
  const emit = (c: StreamChunk) => {
    chunks.push(c);
    steps.observe(c);
  };
  return { chunks, steps, emit };
}

const call = (id: string, name: string, args: unknown) => ({ id, name, rawArguments: JSON.stringify(args), arguments: args, parseError: null });

describe('activity steps: what the run is doing now', () => {
  it('names a call by what it does', () => {
    expect(describeCall('science_search', { database: 'uniprot', query: 'insulin human' })).toBe('Searching UniProt for "insulin human"');
    expect(describeCall('web_fetch', { url: 'https://example.org/a' })).toBe('Reading https://example.org/a');
    expect(describeCall('read_file', { path: 'data/x.csv' })).toBe('Running read_file (data/x.csv)');
  });

  it('labels a call with a message key and its values, for the UI to word in its language', () => {
    expect(labelCall('science_search', { database: 'uniprot', query: 'insulin human' })).toEqual({ key: 'searchFor', params: { db: 'UniProt', query: 'insulin human' } });
    expect(labelCall('web_fetch', { url: 'https://example.org/a' })).toEqual({ key: 'readUrl', params: { url: 'https://example.org/a' } });
    expect(labelCall('read_file', { path: 'data/x.csv' })).toEqual({ key: 'runToolOn', params: { tool: 'read_file', target: 'data/x.csv' } });
    // Workspace tools name the path they act on (read_file above is a name no tool has: it stays generic).
    expect(describeCall('read_text_file', { path: 'data/f0.txt' })).toBe('Reading data/f0.txt');
    expect(labelCall('list_dir', {})).toEqual({ key: 'listDir', params: { path: '.' } });
    expect(labelCall('content_search', { pattern: 'INS_HUMAN' })).toEqual({ key: 'searchFiles', params: { pattern: 'INS_HUMAN' } });
    expect(labelCall('load_skill', { name: 'gel-notes' })).toEqual({ key: 'loadSkill', params: { name: 'gel-notes' } });
    // Without the argument it names, a call falls back to the tool's name.
    expect(labelCall('write_file', {})).toEqual({ key: 'runTool', params: { tool: 'write_file' } });
    // Delegation says what it starts and what it waits for, not the tool's name.
    expect(labelCall('delegate_task', { tasks: [{ task: 'a' }, { task: 'b' }] })).toEqual({ key: 'delegateMany', params: { count: 2 } });
    expect(describeCall('delegate_task', { task: 'Survey insulin structures' })).toBe('Starting a child agent: "Survey insulin structures"');
    expect(describeCall('collect_children', {})).toBe('Waiting for the child agents’ results');
    const h = harness();
    h.steps.toolsStarted([call('c1', 'web_search', { query: 'my key sk-proj-abcdefghijklmnopqrstuvwx' })]);
    // A key pasted into the arguments is scrubbed from the label as from the title.
    expect(JSON.stringify(latest(h.chunks))).not.toContain('abcdefghijklmnopqrstuvwx');
    h.steps.cellStarted('python');
    expect(latest(h.chunks).at(-1)!.label).toEqual({ key: 'cell', params: { language: 'Python' } });
  });

  it('starts and finishes a step per call with times, nested under the plan step in progress', () => {
    const h = harness();
    h.emit(dataChunk('thinking-step', 'plan-1', { id: 'plan-1', title: 'Find the protein', status: 'in_progress', kind: 'plan' }));
    h.steps.toolsStarted([call('c1', 'science_search', { database: 'uniprot', query: 'INS' }), call('c2', 'write_todos', { todos: [] })]);
    const running = latest(h.chunks).find((s) => s.id === 'act-c1')!;
    expect(running).toMatchObject({ status: 'in_progress', parentId: 'plan-1', kind: 'activity', toolCallId: 'c1', title: 'Searching UniProt for "INS"' });
    expect(running.startedAt).toBeDefined();
    // The plan tool itself gets no activity step.
    expect(latest(h.chunks).some((s) => s.id === 'act-c2')).toBe(false);
    h.steps.toolEnded({ toolCallId: 'c1', toolName: 'science_search', isError: true, content: 'science_search failed: HTTP 503\nmore' });
    const done = latest(h.chunks).find((s) => s.id === 'act-c1')!;
    expect(done).toMatchObject({ status: 'failed', items: ['science_search failed: HTTP 503'] });
    expect(Date.parse(done.finishedAt!)).toBeGreaterThan(Date.parse(done.startedAt!));
    // Once the plan step is completed, new activity is not nested under it.
    h.emit(dataChunk('thinking-step', 'plan-1', { id: 'plan-1', title: 'Find the protein', status: 'completed', kind: 'plan' }));
    h.steps.cellStarted('r');
    expect(latest(h.chunks).at(-1)).toMatchObject({ title: 'Running R code', status: 'in_progress' });
    expect(latest(h.chunks).at(-1)!.parentId).toBeUndefined();
  });

  it('shows a wait for approval under its call, and the answer it got', () => {
    const h = harness();
    h.steps.toolsStarted([call('c1', 'web_fetch', { url: 'https://example.org' })]);
    const approval = { requestId: 'req1', origin: 'tool' as const, tool: 'web_fetch', target: 'https://example.org', reason: 'read it', toolCallId: 'c1' };
    h.emit(dataChunk('approval', 'req1', { ...approval, state: 'requested' }));
    expect(latest(h.chunks).find((s) => s.id === 'wait-req1')).toMatchObject({ status: 'in_progress', parentId: 'act-c1', title: 'Waiting for your approval: web_fetch → https://example.org' });
    h.emit(dataChunk('approval', 'req1', { ...approval, state: 'denied' }));
    expect(latest(h.chunks).find((s) => s.id === 'wait-req1')).toMatchObject({ status: 'failed', items: ['Answer: denied'] });
  });

  it('shows a wait for approval of a cell\'s host call under the running cell', () => {
    const h = harness();
    h.steps.cellStarted('python');
    h.emit(dataChunk('approval', 'req2', { requestId: 'req2', origin: 'cell', tool: 'web_fetch', target: 'https://example.org', reason: '', cellId: 'c', state: 'requested' }));
    expect(latest(h.chunks).find((s) => s.id === 'wait-req2')).toMatchObject({ status: 'in_progress', parentId: 'act-run-1-cell1' });
    h.emit(dataChunk('approval', 'req2', { requestId: 'req2', origin: 'cell', tool: 'web_fetch', target: 'https://example.org', reason: '', cellId: 'c', state: 'allowed_once' }));
    expect(latest(h.chunks).find((s) => s.id === 'wait-req2')).toMatchObject({ status: 'completed', items: ['Answer: allowed once'] });
  });

  it('names the cell by its number once the kernel gives it, and writes the answer as a step', () => {
    const h = harness();
    h.steps.cellStarted('python');
    h.emit(dataChunk('cell', 'cell-x', { language: 'python', code: 'print(1)', status: 'running', output: [] }));
    expect(latest(h.chunks)[0]).toMatchObject({ title: 'Running Python code', status: 'in_progress' });
    h.emit(dataChunk('cell', 'cell-x', { language: 'python', code: 'print(1)', status: 'ok', cellNumber: 3 }));
    h.steps.cellEnded(true);
    expect(latest(h.chunks)[0]).toMatchObject({ title: 'Python cell 3', status: 'completed' });
    h.emit({ type: 'tool-input-start', toolCallId: 'f1', toolName: 'finalize_response' });
    expect(latest(h.chunks)[1]).toMatchObject({ title: 'Writing the answer', status: 'in_progress' });
    h.steps.answerEnded(false);
    expect(latest(h.chunks)[1]).toMatchObject({ status: 'failed' });
  });

  it('ends what still runs when the run ends: failed unless it completed', () => {
    const h = harness();
    h.steps.toolsStarted([call('c1', 'list_dir', { path: '.' })]);
    h.steps.closeAll(false);
    expect(latest(h.chunks)[0]).toMatchObject({ status: 'failed' });
    const before = h.chunks.length;
    h.steps.closeAll(false);
    expect(h.chunks.length).toBe(before);
  });
});

describe('activity labels', () => {
  it('the English title of every label key is what the workbench says in English (one wording, two places)', () => {
    const params = { db: 'UniProt', query: 'insulin', url: 'https://x.org', text: 'note', id: 'mem_1', tool: 'read_file', target: 'a.csv', language: 'R', number: 2 };
    for (const key of activityLabelKeys) {
      expect(englishTitle({ key, params }), key).toBe(translate('en', `activity.${key}`, params));
    }
  });

  it("a label's values are scrubbed of keys like its title, and bounded", () => {
    const emitted: StreamChunk[] = [];
    const steps = new ActivitySteps((c) => emitted.push(c), 'r1');
    steps.toolsStarted([{ id: 'c1', name: 'web_search', rawArguments: '', arguments: { query: `sk-proj-${'a'.repeat(40)} ${'q'.repeat(500)}` }, parseError: null }]);
    const step = (emitted[0] as { data: { title: string; label: { params: { query: string } } } }).data;
    expect(step.label.params.query).not.toContain('sk-proj-aaaa');
    expect(step.title).not.toContain('sk-proj-aaaa');
    expect(step.label.params.query.length).toBeLessThanOrEqual(60);
  });
});
