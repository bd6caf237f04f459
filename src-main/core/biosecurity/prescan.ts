/**
 * The cheap local pre-scan of biosecurity screening (issue 27): it decides when a model
 * call is worth spending, never what is allowed. Calibrated for scientists: a term that
 * routine work uses every day (a pathogen's name in phylogenetics, "mutations", toxicity
 * of a drug) never trips it alone. What trips it:
 * - terms with almost no routine use (chemical warfare agents and their CAS numbers, the
 *   most dangerous toxins and their UniProt accessions, variola), weaponisation and
 *   evading screening;
 * - an intent to enhance a pathogen's transmissibility, virulence, host range or escape;
 * - a regulated agent named together with hands-on manipulation (synthesis, mutagenesis,
 *   reverse genetics, passage), anywhere in the run so far.
 */

import { normaliseForScreening } from './normalise';

export type HitCategory = 'chemical' | 'toxin' | 'agent' | 'intent' | 'evasion' | 'manipulation';

export interface PrescanHit {
  category: HitCategory;
  /** The canonical term (the key a later step is compared by). */
  term: string;
  /** The words around the hit, for the ledger and the screener. */
  excerpt: string;
}

interface Term {
  category: HitCategory;
  term: string;
  pattern: RegExp;
}

const t = (category: HitCategory, term: string, pattern: RegExp): Term => ({ category, term, pattern });

/** Each trips the pre-scan on its own. */
const STANDALONE: Term[] = [
  // Schedule 1 chemical warfare agents (Chemical Weapons Convention), names and CAS numbers.
  t('chemical', 'sarin', /\bsarin\b|\b107-44-8\b/i),
  t('chemical', 'soman', /\bsoman\b|\b96-64-0\b/i),
  t('chemical', 'tabun', /\btabun\b|\b77-81-6\b/i),
  t('chemical', 'cyclosarin', /\bcyclosarin\b|\b329-99-7\b/i),
  t('chemical', 'VX', /\bVX\b(?![-\w])(\s+(nerve|agent|gas))?|\b50782-69-9\b/),
  t('chemical', 'novichok', /\bnovichoks?\b/i),
  t('chemical', 'sulfur mustard', /\bsul(f|ph)ur mustard\b|\bmustard gas\b|\b505-60-2\b/i),
  t('chemical', 'lewisite', /\blewisite\b|\b541-25-3\b/i),
  t('chemical', 'methylphosphonic difluoride', /\bmethylphosphon(ic|yl) difluoride\b|\b676-99-3\b/i),
  // Toxins of the select agent lists with little routine laboratory use, and their UniProt accessions.
  t('toxin', 'ricin', /\bricin\b|\bP02879\b/i),
  t('toxin', 'abrin', /\babrin\b|\bP11140\b/i),
  t('toxin', 'botulinum neurotoxin', /\bbotulinum (neuro)?toxin\b|\bbotulinum\b|\bBoNT(\/[A-G])?\b|\bP0DPI0\b/i),
  t('toxin', 'anthrax toxin', /\banthrax (lethal|edema|oedema) (factor|toxin)\b|\bP15917\b|\bP13423\b/i),
  t('toxin', 'saxitoxin', /\bsaxitoxins?\b/i),
  t('toxin', 'conotoxin', /\bconotoxins?\b/i),
  t('toxin', 'staphylococcal enterotoxin B', /\bstaphylococcal enterotoxin B\b/i),
  t('toxin', 'T-2 toxin', /\bT-2 toxin\b/i),
  t('agent', 'variola', /\bvariola\b|\bsmallpox virus\b|\bNC_001611\b/i),
  t('evasion', 'weaponisation', /\bweaponi[sz]\w*|\bbio-?weapons?\b|\bbiological weapons?\b|\bchemical weapons?\b|\bmass casualt\w*/i),
  t('evasion', 'evading screening', /\b(evade|evading|evasion of|bypass\w*|circumvent\w*|avoid\w*|get(ting)? around|slip past|fool)\b[\w\s,'-]{0,40}?\b(screening|screeners?|biosecurity|export controls?|synthesis checks?|detection by (the )?(vendor|provider|synthesis))/i),
  t('evasion', 'splitting a synthesis order', /\bsplit\w*\b[\w\s,'-]{0,30}?\b(order|sequence|gene)s?\b[\w\s,'-]{0,30}?\b(across|between|among)\b[\w\s,'-]{0,20}?\b(vendors|providers|companies|suppliers)\b/i),
  t('evasion', 'aerosolising an agent', /\baerosoli[sz]\w*\b[\w\s,'-]{0,30}?\b(spores?|virus\w*|pathogens?|toxins?|agents?|bacteria\w*)\b/i),
  t('intent', 'gain of function', /\bgain[- ]of[- ]function\b|\benhanced potential pandemic\b|\bePPP\b/i),
  t(
    'intent',
    'enhancing a pathogen',
    /\b(increas\w*|enhanc\w*|boost\w*|improv\w*|maximi[sz]\w*|rais\w*|augment\w*|confer\w*|heighten\w*|expand\w*|broaden\w*)\b[\w\s,'-]{0,40}?\b(transmissibility|transmission(?!\s+(electron|line|spectr|mode|microscop|rate of light))|virulence|pathogenicity|lethality|infectivity|host[- ]range|airborne|aerosol transmission|mammalian adaptation|immune (evasion|escape)|vaccine escape|antiviral resistance|human-to-human)\b/i,
  ),
  t('intent', 'making a pathogen more dangerous', /\bmore (transmissible|contagious|virulent|lethal|pathogenic|infectious|deadly)\b|\b(airborne|aerosol) transmissib\w+ (in|between|among) (mammals|ferrets|humans)\b/i),
];

/** Regulated agents that routine work also names (phylogenetics, diagnostics, epidemiology): they trip only with manipulation. */
const AGENTS: Term[] = [
  t('agent', 'Bacillus anthracis', /\bBacillus anthracis\b|\bB\. anthracis\b|\banthrax\b/i),
  t('agent', 'Yersinia pestis', /\bYersinia pestis\b|\bY\. pestis\b|\bplague bacteri\w*/i),
  t('agent', 'Francisella tularensis', /\bFrancisella tularensis\b|\bF\. tularensis\b|\btularemia\b/i),
  t('agent', 'ebolavirus', /\bebola\w*\b|\bNC_002549\b/i),
  t('agent', 'Marburg virus', /\bmarburg\w*\b|\bNC_001608\b/i),
  t('agent', 'Nipah/Hendra virus', /\bnipah\b|\bhendra\b|\bNC_002728\b/i),
  t('agent', 'highly pathogenic avian influenza', /\bH5N1\b|\bH7N9\b|\bH5N6\b|\b1918 (influenza|flu|pandemic)\b|\bavian influenza\b/i),
  t('agent', 'SARS/MERS coronavirus', /\bSARS-?CoV(-?[12])?\b|\bMERS(-?CoV)?\b/i),
  t('agent', 'haemorrhagic fever viruses', /\blassa\b|\bjunin\b|\bmachupo\b|\bcrimean[- ]congo\b|\bCCHFV?\b|\brift valley fever\b/i),
  t('agent', 'Burkholderia mallei/pseudomallei', /\bBurkholderia (pseudo)?mallei\b|\bglanders\b|\bmelioidosis\b/i),
  t('agent', 'other select agents', /\bCoxiella burnetii\b|\bRickettsia prowazekii\b|\bBrucella (abortus|melitensis|suis)\b|\bfoot[- ]and[- ]mouth disease\b|\brinderpest\b|\bequine encephalitis virus\b|\btick-borne encephalitis\b|\bClostridium botulinum\b/i),
];

/** Hands-on work on an agent's genome or gene products. */
const MANIPULATION: Term[] = [
  t(
    'manipulation',
    'genetic manipulation',
    /\b(mutate\w*|mutagenesis|introduc\w* (the |these |those |a |point )?mutations?|engineer\w* (the |a |its |this )?(virus|strain|genome|genes?|proteins?|spike|toxins?|pathogens?|bacteri\w*|segments?)|synthesi[sz]\w* (the |a |its |this )?(full[- ]length )?(genome|genes?|virus|dna|rna|sequences?|constructs?|toxins?|fragments?|plasmids?)|de novo synthesis|gene synthesis|order\w* (the )?(genes?|dna|oligos?|fragments?|gblocks?)|reverse genetics|rescu\w* (the |a )?(infectious )?virus|serial(ly)? passag\w*|codon[- ]optimi[sz]\w*|chimeric virus\w*|recombinant virus\w*|insert\w* (the |this )?(gene|sequence|segment) into|infectious clone)\b/i,
  ),
];

function excerpt(text: string, index: number, length: number): string {
  const from = Math.max(0, index - 60);
  const to = Math.min(text.length, index + length + 60);
  return `${from ? '…' : ''}${text.slice(from, to).replace(/\s+/g, ' ').trim()}${to < text.length ? '…' : ''}`;
}

/** Every hit in `text` (read with its disguises undone: normalise.ts), one per term. */
export function prescan(raw: string): PrescanHit[] {
  const text = normaliseForScreening(raw);
  const hits: PrescanHit[] = [];
  for (const term of [...STANDALONE, ...AGENTS, ...MANIPULATION]) {
    const match = term.pattern.exec(text);
    if (match) hits.push({ category: term.category, term: term.term, excerpt: excerpt(text, match.index, match[0].length) });
  }
  return hits;
}

const standaloneTerms = new Set(STANDALONE.map((term) => term.term));

/**
 * Whether hits warrant the screener: a standalone term, or an agent and a manipulation
 * together. `earlier` are the hits of the run before this step (an agent named by the user
 * and a mutagenesis cell two turns later trip together).
 */
export function trips(hits: readonly PrescanHit[], earlier: readonly PrescanHit[] = []): boolean {
  if (hits.some((h) => standaloneTerms.has(h.term))) return true;
  const all = [...earlier, ...hits];
  const agent = all.some((h) => h.category === 'agent');
  const manipulation = all.some((h) => h.category === 'manipulation');
  return agent && manipulation && hits.some((h) => h.category === 'agent' || h.category === 'manipulation');
}
