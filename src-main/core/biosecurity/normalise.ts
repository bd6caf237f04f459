/**
 * The text the biosecurity scans read (issue 27): the step as written, with the cheap
 * disguises undone, so a term or a sequence is seen however it was typed. It is only ever
 * scanned, never run or shown as the step itself.
 * - invisible characters (zero-width, soft hyphen, bidi controls) are dropped and
 *   compatibility forms folded (NFKC: full-width letters);
 * - Cyrillic and Greek letters drawn like Latin ones read as those Latin letters;
 * - string literals joined by `+` or by adjacency (`"sa" + "rin"`, `("ATG..."\n "CCA...")`)
 *   read as one literal;
 * - sequences laid out in blocks (GenBank / UniProt style: `1 atgcatgcat gcatgcatgc`, line
 *   numbers between lines) read as one run.
 * What it cannot undo (a sequence built at run time from variables, files or encodings) is
 * left to the screener and the sandbox: this is a pre-scan, not the only layer.
 */

/** Code points (and ranges) that draw nothing: zero-width, soft hyphen, joiners, bidi controls, fillers. */
const INVISIBLE_POINTS: readonly (number | [number, number])[] = [0xad, 0x34f, 0x61c, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180e, [0x200b, 0x200f], [0x202a, 0x202e], [0x2060, 0x2064], [0x2066, 0x206f], 0x3164, 0xfeff, 0xffa0];
const hex = (n: number) => `\\u${n.toString(16).padStart(4, '0')}`;
// Built from code points: some of them join to the character before them, which is why they are removed.
const INVISIBLE = new RegExp(`[${INVISIBLE_POINTS.map((p) => (typeof p === 'number' ? hex(p) : `${hex(p[0])}-${hex(p[1])}`)).join('')}]`, 'g');

/** Cyrillic and Greek letters that render as Latin ones. */
const LOOKALIKES: Record<string, string> = {
  а: 'a', в: 'b', е: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x', і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', һ: 'h', ӏ: 'l', ԛ: 'q', ԝ: 'w',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', У: 'Y', Х: 'X', І: 'I', Ј: 'J', Ѕ: 'S', Ԁ: 'D', Ԛ: 'Q', Ԝ: 'W',
  α: 'a', ο: 'o', ν: 'v', ρ: 'p', τ: 't', ι: 'i', κ: 'k', υ: 'u', ϲ: 'c', ϳ: 'j',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X', Ϲ: 'C',
};
const LOOKALIKE = new RegExp(`[${Object.keys(LOOKALIKES).join('')}]`, 'g');

/**
 * The end of one string literal and the start of the next, joined by `+`, a backslash or a
 * line break. Each repeated piece starts with a different character, so a long run of
 * spaces is read once (no backtracking blow-up on hostile input).
 */
const LITERAL_JOIN = /(["'])(?:[ \t+]|\\?\r?\n)*\1/g;

/** What separates two blocks of a sequence: spaces, or a line break, either with a line number. */
const SEP = String.raw`(?:[ \t]+(?:\d+[ \t]+)?|[ \t]*\r?\n[ \t]*(?:\d+[ \t]+)?)`;
/**
 * A separator between blocks of nucleotides (GenBank: `1 atgcatgcat gcatgcatgc`). Only the
 * separator is matched, between look-arounds of fixed length, so a genome-long run or a long
 * stretch of spaces is read in one pass (no backtracking blow-up on hostile input).
 */
const DNA_GAP = new RegExp(String.raw`(?<=[ACGTUN]{6})${SEP}(?=[ACGTUN]{6})`, 'gi');
/** A separator between blocks of residues (UniProt lays them out by tens). */
const PROTEIN_GAP = new RegExp(String.raw`(?<=[ACDEFGHIKLMNPQRSTVWY]{10})${SEP}(?=[ACDEFGHIKLMNPQRSTVWY]{5})`, 'gi');

/** The last text read and its reading: the pre-scan and the sequence check read the same step. */
let last: { text: string; read: string } | null = null;

export function normaliseForScreening(text: string): string {
  if (last?.text === text) return last.read;
  const read = text
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(LOOKALIKE, (c) => LOOKALIKES[c] ?? c)
    .replace(LITERAL_JOIN, '')
    .replace(DNA_GAP, '')
    .replace(PROTEIN_GAP, '');
  last = { text, read };
  return read;
}
