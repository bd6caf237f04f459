/**
 * The sequence check of issue 27: before a step that works to enhance what a sequence does
 * (higher binding, infectivity, expression, stability, ...) runs on a raw, unlabelled
 * sequence, the session must hold evidence of that sequence's identity (a database search
 * result or a similarity hit). Otherwise the step is refused with the reason and the way
 * forward (search first). Labelled sequences (a FASTA header with an accession) and steps
 * that are themselves identity searches pass.
 */

import { normaliseForScreening } from './normalise';

export interface RawSequence {
  kind: 'dna' | 'protein';
  length: number;
  preview: string;
}

const DNA_RUN = /[ACGTUN]{60,}/gi;
const PROTEIN_RUN = /[ACDEFGHIKLMNPQRSTVWY]{40,}/gi;
/** UniProt, RefSeq/GenBank/ENA and PDB-style accessions as a FASTA header carries them. */
const ACCESSION = /\b([OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9]([A-Z][A-Z0-9]{2}[0-9]){1,2}|[A-Z]{1,2}_?[0-9]{5,8}(\.[0-9]+)?|[0-9][A-Za-z0-9]{3}_[A-Za-z0-9])\b/;

/** Whether the sequence starting at `index` follows a FASTA header that names an accession. */
function labelled(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 400), index);
  const header = before.lastIndexOf('>');
  if (header < 0) return false;
  const line = before.slice(header).split('\n')[0] ?? '';
  return ACCESSION.test(line);
}

/** The raw sequences in a step's text that no accession-bearing header labels. */
export function unlabelledSequences(text: string): RawSequence[] {
  const found: RawSequence[] = [];
  for (const m of text.matchAll(DNA_RUN)) {
    if (!labelled(text, m.index)) found.push({ kind: 'dna', length: m[0].length, preview: `${m[0].slice(0, 24)}…` });
  }
  for (const m of text.matchAll(PROTEIN_RUN)) {
    const run = m[0].toUpperCase();
    // Not DNA read as protein, and varied enough to be a protein (not a run of one letter).
    if (/^[ACGTUN]+$/.test(run) || new Set(run).size < 8) continue;
    if (!labelled(text, m.index)) found.push({ kind: 'protein', length: run.length, preview: `${run.slice(0, 24)}…` });
  }
  return found;
}

const ENHANCE =
  /\b(directed evolution|affinity maturation|gain[- ]of[- ]function|(increas|enhanc|improv|boost|maximi[sz]|optimi[sz]|strengthen|rais)\w*[\w\s,'-]{0,40}?\b(binding|affinity|activity|potency|stability|infectivity|transmissibility|virulence|toxicity|fitness|host range|receptor (binding|usage)|cleavage|replication|expression|resistance|escape)\b|design\w* (new |better |improved )?(mutants|variants)\b[\w\s,'-]{0,40}?\b(higher|stronger|increased|enhanced|better|more))/i;

/** The phrase that makes a step capability-enhancing, or null. */
export function enhancementIntent(text: string): string | null {
  return ENHANCE.exec(text)?.[0] ?? null;
}

/** A step that establishes identity itself (a database search, a similarity search) is never refused for lacking it. */
export function isIdentityStep(text: string): boolean {
  return /\bscience[._]search\b|\b(qblast|blast[npx]?|tblast[nx]|NCBIWWW|mmseqs|diamond\s+blast[px]|hmmscan|jackhmmer|phmmer|foldseek)\b/i.test(text);
}

export interface SequenceCheckInput {
  /** The step's own text: the reply's prose and the cell's code (or the write's arguments). */
  step: string;
  /** The user's messages of the run (the intent may be stated there, the code may not repeat it). */
  userText: string;
}

/** Why the step must wait for identity evidence, or null when it may run. */
export function sequenceConcern(input: SequenceCheckInput): { sequences: RawSequence[]; intent: string } | null {
  // Read with its disguises undone (a sequence split into literals or blocks, look-alike letters).
  const step = normaliseForScreening(input.step);
  if (isIdentityStep(step)) return null;
  const sequences = unlabelledSequences(step);
  if (!sequences.length) return null;
  const intent = enhancementIntent(step) ?? enhancementIntent(normaliseForScreening(input.userText));
  return intent ? { sequences, intent } : null;
}
