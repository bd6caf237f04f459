import { describe, expect, it } from 'vitest';
import type { CitedAnswer } from '../../../src-preload/contract/answer';
import type { EvidenceRecord } from '../../../src-preload/contract/evidence';
import { evidenceLabel, surname } from '../../../src-preload/contract/evidenceLabel';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import { joinSuggestions, sourceChunkOf, withAnswerSources } from '../../../src-main/core/engine/answerSources';

const rec = (id: string, kind: EvidenceRecord['kind'], title: string, envelope: Record<string, unknown>): EvidenceRecord => ({ id, sessionId: 's', kind, title, snippet: '', envelope, createdAt: '2026-01-01T00:00:00Z' });

const paper = rec('ev_aaaaaaaaaaaaaaaa', 'retrieval', 'Search-and-replace genome editing', { database: 'bohrium_navigator', authors: ['Andrew V. Anzalone', 'David R. Liu'], year: 2019, journal: 'Nature', doi: '10.1038/s41586-019-1711-4', url: null });
const uniprot = rec('ev_bbbbbbbbbbbbbbbb', 'retrieval', 'UniProt P01308: Insulin', { database: 'uniprot', record_id: 'P01308', url: 'https://www.uniprot.org/uniprotkb/P01308/entry' });
const page = rec('ev_cccccccccccccccc', 'page', 'FDA approves first gene therapies', { request_url: 'https://www.fda.gov/x', final_url: 'https://www.fda.gov/news/x' });
const pdf = rec('ev_dddddddddddddddd', 'retrieval', 'paper.pdf, pages 1-3', { database: 'pdf', media_type: 'application/pdf', path: 'papers/paper.pdf', sha256: 'ab' });
const cell = rec('ev_eeeeeeeeeeeeeeee', 'cell', 'Python cell 1 (ok)', {});

const answer = (over: Partial<CitedAnswer> = {}): CitedAnswer => ({
  summary: 's',
  claims: [
    { statement: 'a', basis: 'observed', evidence: [paper.id, uniprot.id], uncertainty: '' },
    { statement: 'b', basis: 'observed', evidence: [page.id, pdf.id, cell.id, paper.id], uncertainty: '' },
  ],
  limitations: ['l'],
  next_steps: [],
  suggested_questions: [],
  artifacts: [],
  completion_bullets: ['c'],
  cited: true,
  ...over,
});

describe('human labels of evidence', () => {
  it('names papers by first author, year and journal, database records by accession, pages by site', () => {
    expect(evidenceLabel(paper)).toBe('Anzalone 2019, Nature');
    expect(evidenceLabel(uniprot)).toBe('UniProt P01308');
    expect(evidenceLabel(page)).toBe('fda.gov: FDA approves first gene therapies');
    expect(surname('Smith, Jane')).toBe('Smith');
  });
});

describe('sources of a cited answer', () => {
  it('a record with an address is a source-url (a DOI when there is no URL); a PDF is a source-document; a cell is none', () => {
    expect(sourceChunkOf(paper)).toMatchObject({ type: 'source-url', sourceId: paper.id, url: 'https://doi.org/10.1038/s41586-019-1711-4', title: 'Anzalone 2019, Nature: Search-and-replace genome editing' });
    expect(sourceChunkOf(uniprot)).toMatchObject({ type: 'source-url', url: 'https://www.uniprot.org/uniprotkb/P01308/entry', title: 'UniProt P01308: Insulin' });
    expect(sourceChunkOf(page)).toMatchObject({ type: 'source-url', url: 'https://www.fda.gov/news/x' });
    expect(sourceChunkOf(pdf)).toMatchObject({ type: 'source-document', mediaType: 'application/pdf', filename: 'paper.pdf' });
    expect(sourceChunkOf(cell)).toBeNull();
  });

  it('follows the answer chunk with one source per cited record, in citation order, once each', () => {
    const out: StreamChunk[] = [];
    const byId = new Map([paper, uniprot, page, pdf, cell].map((r) => [r.id, r]));
    const sink = withAnswerSources({ emit: (c) => out.push(c) }, { missing: () => [], records: (ids) => ids.flatMap((id) => byId.get(id) ?? []) });
    sink.emit({ type: 'data-answer', id: 'r', data: answer() });
    expect(out.map((c) => c.type)).toEqual(['data-answer', 'source-url', 'source-url', 'source-url', 'source-document']);
    expect(out.slice(1).map((c) => (c as { sourceId: string }).sourceId)).toEqual([paper.id, uniprot.id, page.id, pdf.id]);
  });

  it('joins suggestions a finished tool offered (not preliminary ones), at most five, without repeats', () => {
    const out: StreamChunk[] = [];
    const sink = withAnswerSources({ emit: (c) => out.push(c) }, { missing: () => [] });
    sink.emit({ type: 'tool-output-available', toolCallId: 't', output: { suggested_questions: ['early'] }, preliminary: true });
    sink.emit({ type: 'tool-output-available', toolCallId: 't', output: { suggested_questions: ['Q1', 'q2', 'Q3', 'Q4', 'Q5'] } });
    sink.emit({ type: 'data-answer', id: 'r', data: answer({ suggested_questions: ['Q2'] }) });
    expect((out.at(-1) as { data: CitedAnswer }).data.suggested_questions).toEqual(['Q2', 'Q1', 'Q3', 'Q4', 'Q5']);
    expect(joinSuggestions(answer({ suggested_questions: ['x'] }), []).suggested_questions).toEqual(['x']);
  });

  it('leaves an uncited answer alone', () => {
    const out: StreamChunk[] = [];
    const sink = withAnswerSources({ emit: (c) => out.push(c) }, { missing: () => [], records: () => [paper] });
    sink.emit({ type: 'data-answer', id: 'r', data: answer({ cited: false }) });
    expect(out).toHaveLength(1);
  });
});
