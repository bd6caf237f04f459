/**
 * The XML reader for the Atom (arXiv) and E-utilities (PubMed) answers, on fast-xml-parser.
 * The library checks well-formedness and builds the tree; this file keeps our small tree shape
 * (elements in document order, attributes, text; CDATA as text), our error words, and the
 * decoding of character references. Namespace prefixes are kept in the names
 * ("opensearch:totalResults"). Malformed input throws XmlError with the offset.
 *
 * Hostile input: the library never expands entities (`processEntities: false`); we decode only
 * the five predefined entities and numeric references, so a DOCTYPE's entities (billion laughs,
 * external SYSTEM entities) are never resolved and an undeclared one is an error. Names such as
 * `__proto__` are refused by the library, attributes land in fresh objects, nesting is capped at
 * 100 levels and the document at MAX_XML_CHARS.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { errorMessage } from '../shared/errorMessage';

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

export class XmlError extends Error {
  constructor(message: string, readonly offset: number) {
    super(`${message} at offset ${offset}`);
    this.name = 'XmlError';
  }
}

/** Same bound as the science HTTP client's body cap; a caller without that cap still gets one. */
export const MAX_XML_CHARS = 64 * 1024 * 1024;

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(text: string, at: number): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/g, (_m, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!Number.isFinite(code) || code > 0x10ffff) throw new XmlError(`bad character reference &${ref};`, at);
      return String.fromCodePoint(code);
    }
    const named = NAMED[ref];
    if (named === undefined) throw new XmlError(`unknown entity &${ref};`, at);
    return named;
  });
}

const TEXT = '#text';
const CDATA = '#cdata';
const ATTRS = ':@';

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  cdataPropName: CDATA,
  ignoreDeclaration: true,
  ignorePiTags: true,
  captureMetaData: true,
});
// The library types this symbol as the `Symbol` wrapper object; it is a plain symbol.
const META = XMLParser.getMetaDataSymbol() as unknown as symbol;

/** One node of fast-xml-parser's `preserveOrder` output: `{ tag: children, ':@': attrs }`. */
type OrderedNode = Record<string, unknown>;

/** Where the node's element starts and ends in the input (`captureMetaData`). */
function span(node: OrderedNode): { startIndex?: number; endIndex?: number } {
  return (node as Record<symbol, { startIndex?: number; endIndex?: number } | undefined>)[META] ?? {};
}

function offsetAt(input: string, line: number, col: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = input.indexOf('\n', offset);
    if (nl < 0) break;
    offset = nl + 1;
  }
  return offset + Math.max(0, col - 1);
}

/**
 * The validator's codes are coarse (InvalidTag covers a mismatch, a stray closing tag and an
 * unclosed element), so the tag names come from its message; anything unrecognised keeps the
 * library's own words.
 */
function ourWords(message: string): string {
  const mismatch = /^Expected closing tag '([^']+)' .*instead of closing tag '([^']+)'/.exec(message);
  if (mismatch) return `closing tag </${mismatch[2]}> does not match <${mismatch[1]}>`;
  const unclosed = /^Unclosed tag '([^']+)'/.exec(message);
  if (unclosed) return `unclosed element <${unclosed[1]}>`;
  const stray = /^Closing tag '([^']+)' has not been opened/.exec(message);
  if (stray) return `closing tag </${stray[1]}> has no open element`;
  if (/^Extra text at the end/.test(message)) return 'text outside the root element';
  return message.replace(/\.$/, '').replace(/^./, (c) => c.toLowerCase());
}

function elementName(node: OrderedNode): string | undefined {
  return Object.keys(node).find((k) => k !== ATTRS && k !== TEXT && k !== CDATA);
}

function toElement(node: OrderedNode, name: string): XmlElement {
  const at = span(node).startIndex ?? 0;
  const attrs: Record<string, string> = {};
  for (const [key, value] of Object.entries((node[ATTRS] ?? {}) as Record<string, string>)) {
    Object.defineProperty(attrs, key, { value: decodeEntities(value, at), enumerable: true, writable: true, configurable: true });
  }
  const children: XmlNode[] = [];
  for (const kid of node[name] as OrderedNode[]) {
    if (TEXT in kid) children.push(decodeEntities(String(kid[TEXT]), at));
    else if (CDATA in kid) children.push((kid[CDATA] as OrderedNode[]).map((t) => String(t[TEXT] ?? '')).join(''));
    else {
      const kidName = elementName(kid);
      if (kidName !== undefined) children.push(toElement(kid, kidName));
    }
  }
  return { name, attrs, children };
}

export function parseXml(input: string): XmlElement {
  if (input.length > MAX_XML_CHARS) throw new XmlError(`document is over the ${MAX_XML_CHARS}-character limit`, MAX_XML_CHARS);
  const lead = /^\s*/.exec(input)![0].length;
  if (lead < input.length && input[lead] !== '<') throw new XmlError('text outside the root element', lead);
  const verdict = XMLValidator.validate(input);
  if (verdict !== true) throw new XmlError(ourWords(verdict.err.msg), offsetAt(input, verdict.err.line, verdict.err.col));
  let top: OrderedNode[];
  try {
    top = parser.parse(input) as OrderedNode[];
  } catch (error) {
    // The validator passed, so this is the parser's own refusal (a `__proto__` name, an external entity, nesting over 100).
    throw new XmlError(ourWords(errorMessage(error)), 0);
  }
  const roots = top.filter((n) => elementName(n) !== undefined);
  if (roots.length === 0) throw new XmlError('no root element', input.length);
  if (roots.length > 1) throw new XmlError('a second root element', span(roots[1]!).startIndex ?? 0);
  const root = roots[0]!;
  // The validator lets text after a self-closed root pass and the parser drops it; we refuse it.
  const end = span(root).endIndex ?? input.length;
  if (input.slice(end).replace(/<!--[\s\S]*?-->|<\?[\s\S]*?\?>/g, '').trim()) throw new XmlError('text outside the root element', end);
  return toElement(root, elementName(root)!);
}

export function children(el: XmlElement | undefined, name: string): XmlElement[] {
  return (el?.children ?? []).filter((c): c is XmlElement => typeof c !== 'string' && c.name === name);
}

export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return children(el, name)[0];
}

/** All text below the element, whitespace collapsed. */
export function textOf(el: XmlElement | undefined): string {
  if (!el) return '';
  const parts: string[] = [];
  const walk = (n: XmlNode) => (typeof n === 'string' ? parts.push(n) : n.children.forEach(walk));
  walk(el);
  return parts.join('').replace(/\s+/g, ' ').trim();
}
