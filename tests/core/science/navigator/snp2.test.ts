import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readAnswer, type NavigatorAnswer } from '../../../../src-main/core/science/navigator/answer';
import { mergeHistory } from '../../../../src-main/core/science/navigator/client';
import { captureReceipts, type Receipt } from '../../../../src-main/core/science/navigator/receipts';
import { Snp2Merger, type Snp2Event } from '../../../../src-main/core/science/navigator/snp2';
import { fixtureText, streamEvents, streamFrames } from './navigatorServer';

const sha = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');

/** Merges events as the client does (receipts from each event's raw text). */
function merge(events: readonly Snp2Event[], raws?: readonly string[]) {
  const merger = new Snp2Merger();
  const receipts = new Map<string, Receipt>();
  events.forEach((e, i) => {
    captureReceipts(e, raws?.[i] ?? JSON.stringify(e), ['channel', 'uiInfo'], 'stream', receipts);
    merger.apply(e);
  });
  return { merger, receipts, answers: merger.answerIds().map((id) => readAnswer(merger.answers.get(id)!, receipts)) };
}

/** The answer without where its receipts came from (stream and history differ only there). */
const comparable = (a: NavigatorAnswer) => ({ ...a, used: a.used.map(({ receipt: _r, ...r }) => r), all: a.all.map(({ receipt: _r, ...r }) => r) });

const ev = (answerId: string, messageId: string, layout: string, content: unknown, actions: [string, string][], patches?: unknown[], type = 'streaming'): Snp2Event => ({
  channel: { answerId, messageId, role: 'assistant', uiInfo: { type: 'ui', layout, subType: layout === 'main' ? '@bohrium-chat/common/markdown' : 'x', content, actionList: actions.map(([key, action]) => ({ key, action })), ...(patches ? { patches } : {}) } },
  system: { event: { type } },
});
const finish = (answerId: string): Snp2Event => ({ channel: { answerId }, system: { event: { type: 'finish' } } });

describe('SNP2 merge of the recorded example stream', () => {
  const raws = streamFrames().map((f) => f.split('\n').find((l) => l.startsWith('data:'))!.slice(5));
  const { answers, merger } = merge(streamEvents() as Snp2Event[], raws);

  it('builds the answer text from append + deltas, the thought tree from patches, references, results and suggestions', () => {
    expect(merger.issues).toEqual([]);
    expect(answers).toHaveLength(1);
    const a = answers[0]!;
    expect(a.status).toBe('complete');
    expect(a.text).toBe(
      '## CRISPR-Cas9 in gene therapy, 2021-2024\n\nEx vivo editing of BCL11A in haematopoietic stem cells removed transfusion dependence in β-thalassemia and vaso-occlusive crises in sickle cell disease [citation:1]. In vivo editing of TTR with lipid nanoparticles lowered serum transthyretin by up to 87% [citation:2].'.trim(),
    );
    expect(a.used.map((r) => [r.resourceId, r.doi, r.year, r.journal, r.authors[0]])).toEqual([
      ['@bohrium:doi:10.1056/NEJMoa2031054', '10.1056/NEJMoa2031054', 2021, 'New England Journal of Medicine', 'Haydar Frangoul'],
      ['@bohrium:doi:10.1056/NEJMoa2107454', '10.1056/NEJMoa2107454', 2021, 'New England Journal of Medicine', 'Julian D. Gillmore'],
    ]);
    expect(a.all.map((r) => r.kind)).toEqual(['paper', 'paper', 'paper', 'web']);
    expect(a.all[3]!.url).toBe('https://www.fda.gov/news-events/press-announcements/fda-approves-first-gene-therapies-treat-patients-sickle-cell-disease');
    expect(a.suggestions).toEqual(['Which CRISPR therapies are approved outside the US?', 'What are the long-term safety data for exa-cel?']);
    expect(a.thinking).toMatchObject({ title: 'Thinking completed', status: 1, description: '2 citations · 4 sources' });
    expect(a.thinking!.children.map((c) => [c.title, c.status])).toEqual([
      ['Intent understood and task plan determined', 1],
      ['Evidence search completed', 1],
      ['Answer completed', 1],
    ]);
    expect(a.thinking!.children[1]!.items).toEqual([
      'Query: CRISPR-Cas9 gene therapy clinical trials 2021-2024 (Found 84 evidences)',
      'Query: exa-cel sickle cell approval (Found 12 evidences)',
      'Called 12 tools, found 96 supporting evidences.',
    ]);
  });

  it('hashes each reference as the exact bytes it arrived in', () => {
    const a = answers[0]!;
    const frame = raws.find((r) => r.includes('NEJMoa2031054') && r.includes('"op":"add"') && r.includes('resourceMap'))!;
    const start = frame.indexOf('"value":') + '"value":'.length;
    const valueText = frame.slice(start, frame.lastIndexOf('}]}'));
    expect(JSON.parse(valueText)).toMatchObject({ doi: '10.1056/NEJMoa2031054' });
    expect(a.used[0]!.receipt).toEqual({ sha256: sha(valueText), byteLength: Buffer.byteLength(valueText), source: 'stream' });
  });

  it('ends, from the history endpoint, with the same merged answer', () => {
    const m = new Snp2Merger();
    const receipts = new Map<string, Receipt>();
    mergeHistory(fixtureText('history.json'), m, receipts);
    const fromHistory = m.answerIds().map((id) => readAnswer(m.answers.get(id)!, receipts));
    expect(fromHistory.map(comparable)).toEqual(answers.map(comparable));
    expect(fromHistory[0]!.used[0]!.receipt!.source).toBe('history');
  });

  it('gives the same result when layouts arrive in another order (per message order kept)', () => {
    const events = streamEvents() as Snp2Event[];
    const body = events.slice(0, -1);
    const byLayout = new Map<string, Snp2Event[]>();
    for (const e of body) {
      const layout = e.channel!.uiInfo!.layout!;
      byLayout.set(layout, [...(byLayout.get(layout) ?? []), e]);
    }
    // Sider first, then postprocessor, main, preprocessor: the reverse of their first appearance.
    const reordered = [...byLayout.values()].reverse().flat();
    const other = merge([...reordered, events.at(-1)!]);
    expect(other.merger.issues).toEqual([]);
    expect(other.answers.map(comparable)).toEqual(answers.map(comparable));
  });
});

describe('SNP2 merge edge cases', () => {
  it('names a patch before its append, keeps reading, and applies it once the append arrives', () => {
    const m = new Snp2Merger();
    const early = m.apply(ev('a', 'm1', 'main', {}, [['status', 'patch']], [{ op: 'replace', path: '/status', value: 1 }]));
    expect(early.issues).toEqual([expect.stringMatching(/message m1 \(answer a, layout main\): patch before append/)]);
    m.apply(ev('a', 'm1', 'main', { text: 'Hello', status: 0 }, [['text', 'append']]));
    m.apply(ev('a', 'm1', 'main', { text: ' world' }, [['text', 'delta']]));
    m.apply(finish('a'));
    const a = readAnswer(m.answers.get('a')!, new Map());
    expect(a.text).toBe('Hello world');
    expect(m.answers.get('a')!.layouts.get('main')!.get('m1')!.content.status).toBe(1);
    expect(a.status).toBe('complete');
  });

  it('reports a patch whose append never came when the answer finishes', () => {
    const m = new Snp2Merger();
    m.apply(ev('a', 'ghost', 'sider', {}, [['tabs', 'patch']], [{ op: 'add', path: '/tabs/0/items/-', value: { resourceId: 'r' } }]));
    m.apply(ev('a', 'm1', 'main', { text: 'x', status: 1 }, [['text', 'append']]));
    const end = m.apply(finish('a'));
    expect(end.issues).toEqual([expect.stringMatching(/message ghost .*1 patch operation\(s\) never applied \(patch before append\)/)]);
    expect(readAnswer(m.answers.get('a')!, new Map()).used).toEqual([]);
  });

  it('names a patch on a missing path, keeps the content, and goes on merging', () => {
    const m = new Snp2Merger();
    m.apply(ev('a', 't', 'preprocessor', { title: 'Thinking', status: 0, children: [{ title: 'one', status: 0 }] }, [['children', 'append']]));
    const bad = m.apply(ev('a', 't', 'preprocessor', {}, [['children', 'patch']], [{ op: 'replace', path: '/children/4/status', value: 1 }]));
    expect(bad.issues).toEqual([expect.stringMatching(/message t \(answer a, layout preprocessor\): patch failed \(.+\)/)]);
    expect(bad.changes).toEqual([]);
    m.apply(ev('a', 't', 'preprocessor', {}, [['children', 'patch']], [{ op: 'replace', path: '/children/0/status', value: 1 }]));
    m.apply(ev('a', 'm', 'main', { text: 'done', status: 1 }, [['text', 'append']]));
    const end = m.apply(finish('a'));
    const a = readAnswer(m.answers.get('a')!, new Map());
    expect(a.thinking!.children).toEqual([expect.objectContaining({ title: 'one', status: 1 })]);
    expect(a.text).toBe('done');
    // The batch that never found its path is reported once more at the end.
    expect(end.issues).toEqual([expect.stringMatching(/never applied/)]);
  });

  it('applies a status update that came before the node it updates, once the node is added', () => {
    const m = new Snp2Merger();
    m.apply(ev('a', 't', 'preprocessor', { title: 'T', status: 0, children: [] }, [['children', 'append']]));
    const early = m.apply(ev('a', 't', 'preprocessor', {}, [['children', 'patch']], [{ op: 'replace', path: '/children/0/status', value: 1 }]));
    expect(early.issues).toHaveLength(1);
    const late = m.apply(ev('a', 't', 'preprocessor', {}, [['children', 'patch']], [{ op: 'add', path: '/children/-', value: { title: 'search', status: 0 } }]));
    expect(late.changes.map((c) => c.action)).toEqual(['patch', 'patch']);
    expect(m.answers.get('a')!.layouts.get('preprocessor')!.get('t')!.content).toEqual({ title: 'T', status: 0, children: [{ title: 'search', status: 1 }] });
  });

  it('keeps interleaved answer ids apart, and a finish of one does not end the other', () => {
    const m = new Snp2Merger();
    m.apply(ev('a', 'ma', 'main', { text: 'A1 ', status: 0 }, [['text', 'append']], undefined, 'start'));
    m.apply(ev('b', 'mb', 'main', { text: 'B1 ', status: 0 }, [['text', 'append']], undefined, 'start'));
    m.apply(ev('a', 'ma', 'main', { text: 'A2' }, [['text', 'delta']]));
    m.apply(ev('b', 'mb', 'main', { text: 'B2' }, [['text', 'delta']]));
    m.apply(finish('a'));
    expect(m.settled()).toBe(false);
    m.apply(ev('b', 'mb', 'main', { text: ' B3' }, [['text', 'delta']]));
    m.apply(finish('b'));
    expect(m.settled()).toBe(true);
    const [a, b] = m.answerIds().map((id) => readAnswer(m.answers.get(id)!, new Map()));
    expect([a!.answerId, a!.text, a!.status]).toEqual(['a', 'A1 A2', 'complete']);
    expect([b!.answerId, b!.text, b!.status]).toEqual(['b', 'B1 B2 B3', 'complete']);
  });

  it('an error event fails the answer with its message and keeps what was merged', () => {
    const m = new Snp2Merger();
    m.apply(ev('a', 'm', 'main', { text: 'Partial', status: 0 }, [['text', 'append']], undefined, 'start'));
    const step = m.apply({ channel: { answerId: 'a' }, system: { event: { type: 'error', message: 'model overloaded' } } });
    expect(step.lifecycle).toEqual({ answerId: 'a', type: 'error', message: 'model overloaded' });
    const a = readAnswer(m.answers.get('a')!, new Map());
    expect([a.status, a.error, a.text]).toEqual(['failed', 'model overloaded', 'Partial']);
    expect(m.settled()).toBe(true);
  });

  it('an error message (uiInfo.type "error") fails its answer; "end" is read as finish', () => {
    const m = new Snp2Merger();
    m.apply(ev('a', 'm', 'main', { text: 'A', status: 0 }, [['text', 'append']], undefined, 'start'));
    m.apply(ev('b', 'n', 'main', { text: 'B', status: 0 }, [['text', 'append']], undefined, 'start'));
    m.apply({ channel: { answerId: 'a', messageId: 'e', uiInfo: { type: 'error', layout: 'main', content: { text: 'quota exceeded' } } } });
    m.apply({ channel: { answerId: 'b' }, system: { event: { type: 'end' } } });
    const [a, b] = m.answerIds().map((id) => readAnswer(m.answers.get(id)!, new Map()));
    expect([a!.status, a!.error]).toEqual(['failed', 'quota exceeded']);
    expect(b!.status).toBe('complete');
    expect(m.settled()).toBe(true);
  });

  it('content.status 2 marks the answer failed even after finish', () => {
    const m = new Snp2Merger();
    m.apply(ev('a', 'm', 'main', { text: 'x', status: 0 }, [['text', 'append']]));
    m.apply(ev('a', 'm', 'main', {}, [['status', 'patch']], [{ op: 'replace', path: '/status', value: 2 }]));
    m.apply(finish('a'));
    expect(readAnswer(m.answers.get('a')!, new Map())).toMatchObject({ status: 'failed', error: expect.stringMatching(/content\.status 2/) });
  });

  it('refuses a patch that reaches __proto__ and names it', () => {
    const m = new Snp2Merger();
    m.apply(ev('a', 'm', 'main', { text: 'x' }, [['text', 'append']]));
    const step = m.apply(ev('a', 'm', 'main', {}, [['x', 'patch']], [{ op: 'add', path: '/__proto__/polluted', value: true }]));
    expect(step.issues).toEqual([expect.stringMatching(/patch failed/)]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('hashes the exact received text of a reference, not a re-serialisation', () => {
    const raw = '{"channel":{"answerId":"a","messageId":"c","uiInfo":{"layout":"main","subType":"@bohrium-chat/snp/cards-data","content":{"data":{"resourceMap":{"r1":{ "title" : "Spaced",  "doi":"10.1/x" }}}},"actionList":[{"key":"data","action":"append"}]}}}';
    const receipts = new Map<string, Receipt>();
    captureReceipts(JSON.parse(raw) as Snp2Event, raw, ['channel', 'uiInfo'], 'stream', receipts);
    const exact = '{ "title" : "Spaced",  "doi":"10.1/x" }';
    expect(receipts.get('r1')!.sha256).toBe(sha(exact));
    expect(receipts.get('r1')!.sha256).not.toBe(sha(JSON.stringify({ title: 'Spaced', doi: '10.1/x' })));
  });
});
