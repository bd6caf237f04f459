/**
 * Whether a memory gives a password's value in words ("the lab server password is
 * hunter2", "password: hunter2", "密码是 abc123"). The shared secret scrubber only knows
 * key-shaped values (8+ characters with a digit after "password="), so short or prose
 * passwords passed it; a sentence that only mentions a password ("reset your password in
 * the portal", "the password is stored in the vault") is not one and stays allowed.
 */

/** The word, then up to five words saying whose ("for the lab server"), then what introduces the value. */
const STATED = /(?:\b(?:pass(?:word|phrase|wd)|pwd)s?\b|密码|口令)((?:\s+(?!(?:is|was|are)\b)[^\s.,;:!?=：。，；]+){0,5}?)(\s*[:=：]|\s+(?:is|was|are)\s|\s*(?:是|为|為))\s*(["'`“‘«]?)([^\s"'`”’»。，；,;]+)/giu;

/** Words that start a sentence about a password rather than its value ("is the same as", "is not set", "is in the vault"). */
const PROSE = new Set(
  'a an the this that my our your their his her its in on at of for from with by to under inside not no never now still also only always usually kept stored saved written shared sent given set required needed expired changed reset rotated managed handled available unknown missing optional same different new old case too very long short weak strong secret private sensitive correct wrong incorrect invalid valid empty blank none'.split(' '),
);
const PROSE_SUFFIX = /(?:ed|ing|ly|able|ible|ive|ful|less)$/;
const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;

function isValue(introducer: string, quote: string, value: string): boolean {
  if (CJK.test(value)) return false; // Chinese prose after 是 or ：, not a password (those are typed in ASCII).
  if (quote) return true;
  if (/[^A-Za-z]/.test(value) || /[a-z][A-Z]/.test(value)) return true; // digits, symbols, mixed case: what passwords are made of
  // A plain word after ":" or "=" is the value; after "is" it may be the start of a sentence about the password.
  if (!/^\s+(?:is|was|are)\s$/i.test(introducer)) return true;
  const word = value.toLowerCase();
  return !PROSE.has(word) && !PROSE_SUFFIX.test(word);
}

export function statesPassword(text: string): boolean {
  for (const m of text.matchAll(STATED)) if (isValue(m[2]!, m[3]!, m[4]!)) return true;
  return false;
}
