import type { Ledger } from '../../../src-main/core/ledger/ledger';
import type { StreamChunk } from '../../../src-preload/contract/stream';

/** A table too wide for a 1024 px window: it must scroll sideways, never wrap a word per letter. */
export const WIDE_TABLE = [
  '| Accession | Entry name | Protein | Organism | Length | Mass (Da) | Chains | Disulfide bonds | Structure | Resolution (Å) |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  '| P01308 | INS_HUMAN | Insulin | Homo sapiens | 110 | 11981 | A 21, B 30 | A6–A11, A7–B7, A20–B19 | 4INS | 1.50 |',
  '| P01317 | INS_BOVIN | Insulin | Bos taurus | 105 | 11394 | A 21, B 30 | A6–A11, A7–B7, A20–B19 | 2A3G | 1.80 |',
  '| P01315 | INS_PIG | Insulin | Sus scrofa | 108 | 11547 | A 21, B 30 | A6–A11, A7–B7, A20–B19 | 4INS | 1.50 |',
].join('\n');

/**
 * Writes a finished session of `runs` question-and-answer pairs straight into the ledger
 * (the same calls the runner makes: submit, start with the user's turn, the answer's
 * chunks, finish), so a 200-message session takes a moment instead of 100 model runs.
 * The last answer ends with WIDE_TABLE.
 */
export function seedLongSession(ledger: Ledger, runs: number, title = 'Insulin across species'): string {
  const session = ledger.createSession(title);
  for (let i = 1; i <= runs; i++) {
    const { run } = ledger.runs.submit(session.id, `seed-${i}`, `Question ${i}: what is residue ${i} of the insulin precursor?`);
    ledger.runs.start(run.id, 'openai', 'gpt-4o-mini');
    const text =
      i === runs
        ? `The precursor and its relatives side by side:\n\n${WIDE_TABLE}\n\nAnswer ${i} ends here.`
        : `Answer ${i}: residue ${i} is part of the ${i <= 24 ? 'signal peptide' : i <= 54 ? 'B chain' : i <= 89 ? 'C peptide' : 'A chain'}. ${'It is described in the UniProt record P01308. '.repeat(2)}`;
    const chunks: StreamChunk[] = [
      { type: 'start', messageId: run.id },
      { type: 'text-start', id: `t${i}` },
      { type: 'text-delta', id: `t${i}`, delta: text },
      { type: 'text-end', id: `t${i}` },
      { type: 'finish', finishReason: 'stop' },
    ];
    for (const chunk of chunks) ledger.events.appendSync(session.id, run.id, chunk);
    ledger.runs.finish(run.id, { status: 'completed' });
  }
  return session.id;
}
