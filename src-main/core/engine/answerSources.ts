import type { CitedAnswer } from '../../../src-preload/contract/answer';
import type { EvidenceRecord } from '../../../src-preload/contract/evidence';
import { evidenceLabel } from '../../../src-preload/contract/evidenceLabel';
import type { DataChunk, SourceDocumentChunk, SourceUrlChunk, StreamChunk } from '../../../src-preload/contract/stream';
import type { EventSinkPort, EvidenceLookupPort } from './ports';

/**
 * What a cited answer adds to the stream, so any AI SDK client shows its sources:
 *
 * - after the `data-answer` part, one `source-url` part per cited record that has an
 *   address (a web page, a paper with a DOI or URL, a database record) and one
 *   `source-document` part per cited document without one (a PDF read from the
 *   workspace), in the order the claims cite them, each named by its human label
 *   ("Smith 2023, Nature", "UniProt P01308") with the evidence id as `sourceId`;
 * - the suggested questions tools offered during the run (a tool's output field
 *   `suggested_questions`, e.g. the Science Navigator's) join the answer's own, up to the
 *   contract's five.
 *
 * A sink decorator: the engine's chunks pass through unchanged otherwise.
 */

export const MAX_SUGGESTED_QUESTIONS = 5;

/** The suggested questions a finished tool output offers (its `suggested_questions` strings). */
export function offeredSuggestions(output: unknown): string[] {
  if (!output || typeof output !== 'object') return [];
  const list = (output as { suggested_questions?: unknown }).suggested_questions;
  return Array.isArray(list) ? list.filter((q): q is string => typeof q === 'string' && q.trim().length > 0 && q.length <= 500).map((q) => q.trim()) : [];
}

/** The answer's suggestions followed by the offered ones, without repeats, at most five. */
export function joinSuggestions(answer: CitedAnswer, offered: readonly string[]): CitedAnswer {
  const seen = new Set<string>();
  const joined = [...answer.suggested_questions, ...offered].filter((q) => {
    const key = q.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const next = joined.slice(0, MAX_SUGGESTED_QUESTIONS);
  return next.length === answer.suggested_questions.length ? answer : { ...answer, suggested_questions: next };
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

function addressOf(record: EvidenceRecord): string {
  const env = record.envelope;
  const doi = str(env.doi);
  const url = str(env.url) || str(env.final_url) || str(env.request_url) || (doi ? `https://doi.org/${doi}` : '');
  return /^https?:\/\//i.test(url) ? url : '';
}

/** The source part of one cited record, or null for what is not a source (cells, artifacts). */
export function sourceChunkOf(record: EvidenceRecord): SourceUrlChunk | SourceDocumentChunk | null {
  if (record.kind === 'cell' || record.kind === 'artifact_version') return null;
  const label = evidenceLabel(record);
  // A title that already starts with its label ("UniProt P01308: Insulin") is not prefixed twice.
  const title = !record.title || record.title.startsWith(label) ? record.title || label : `${label}: ${record.title}`;
  const providerMetadata = { openai4s: { evidenceId: record.id, label, kind: record.kind } };
  const url = addressOf(record);
  if (url && str(record.envelope.media_type) !== 'application/pdf') return { type: 'source-url', sourceId: record.id, url, title, providerMetadata };
  const filename = str(record.envelope.path).split('/').pop() ?? '';
  return {
    type: 'source-document',
    sourceId: record.id,
    mediaType: str(record.envelope.media_type) || str(record.envelope.content_type) || 'application/octet-stream',
    title,
    ...(filename ? { filename } : {}),
    providerMetadata,
  };
}

export function withAnswerSources(sink: EventSinkPort, evidence: EvidenceLookupPort): EventSinkPort {
  const offered: string[] = [];
  return {
    emit(chunk: StreamChunk) {
      if (chunk.type === 'tool-output-available' && !chunk.preliminary) offered.push(...offeredSuggestions(chunk.output));
      if (chunk.type !== 'data-answer') {
        sink.emit(chunk);
        return;
      }
      const data = (chunk as DataChunk).data as CitedAnswer | undefined;
      if (!data || !data.cited) {
        sink.emit(chunk);
        return;
      }
      const answer = joinSuggestions(data, offered);
      sink.emit(answer === data ? chunk : { ...(chunk as DataChunk), data: answer });
      const ids = [...new Set(answer.claims.flatMap((c) => c.evidence))];
      const records = ids.length && evidence.records ? evidence.records(ids) : [];
      for (const record of records) {
        const source = sourceChunkOf(record);
        if (source) sink.emit(source);
      }
    },
  };
}
