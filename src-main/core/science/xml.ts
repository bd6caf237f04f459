/**
 * A small, strict XML reader for the Atom (arXiv) and E-utilities (PubMed) answers:
 * elements, attributes, text, CDATA, comments, processing instructions and a DOCTYPE
 * (skipped, never resolved: no external entities). Namespace prefixes are kept in the
 * names ("opensearch:totalResults"). Malformed input throws XmlError with the offset.
 */
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

const NAME = /[A-Za-z_:][-A-Za-z0-9_:.]*/y;
const ATTR = /\s+([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*("([^"]*)"|'([^']*)')/y;

export function parseXml(input: string): XmlElement {
  let i = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const fail = (message: string): never => {
    throw new XmlError(message, i);
  };
  const skipUntil = (end: string, what: string) => {
    const j = input.indexOf(end, i);
    if (j < 0) fail(`unterminated ${what}`);
    i = j + end.length;
  };
  while (i < input.length) {
    const lt = input.indexOf('<', i);
    const textEnd = lt < 0 ? input.length : lt;
    if (textEnd > i) {
      const raw = input.slice(i, textEnd);
      if (stack.length) stack[stack.length - 1]!.children.push(decodeEntities(raw, i));
      else if (raw.trim()) fail('text outside the root element');
      i = textEnd;
      continue;
    }
    if (input.startsWith('<!--', i)) skipUntil('-->', 'comment');
    else if (input.startsWith('<![CDATA[', i)) {
      const j = input.indexOf(']]>', i);
      if (j < 0) fail('unterminated CDATA section');
      if (!stack.length) fail('CDATA outside the root element');
      stack[stack.length - 1]!.children.push(input.slice(i + 9, j));
      i = j + 3;
    } else if (input.startsWith('<?', i)) skipUntil('?>', 'processing instruction');
    else if (input.startsWith('<!DOCTYPE', i)) {
      // Skip the declaration, including an internal subset in brackets.
      const bracket = input.indexOf('[', i);
      const close = input.indexOf('>', i);
      if (close < 0) fail('unterminated DOCTYPE');
      i = bracket >= 0 && bracket < close ? input.indexOf(']>', bracket) + 2 : close + 1;
      if (i < 2) fail('unterminated DOCTYPE internal subset');
    } else if (input.startsWith('</', i)) {
      NAME.lastIndex = i + 2;
      const m = NAME.exec(input);
      if (!m) fail('bad closing tag');
      const open = stack.pop();
      if (!open || open.name !== m![0]) fail(`closing tag </${m![0]}> does not match <${open?.name ?? '(none)'}>`);
      i = NAME.lastIndex;
      while (/\s/.test(input[i] ?? '')) i++;
      if (input[i] !== '>') fail(`expected ">" after </${m![0]}`);
      i++;
      if (!stack.length) root = open!;
    } else {
      NAME.lastIndex = i + 1;
      const m = NAME.exec(input);
      if (!m) fail('bad tag name');
      if (!stack.length && root) fail('a second root element');
      const el: XmlElement = { name: m![0], attrs: {}, children: [] };
      i = NAME.lastIndex;
      for (;;) {
        ATTR.lastIndex = i;
        const a = ATTR.exec(input);
        if (!a) break;
        el.attrs[a[1]!] = decodeEntities(a[3] ?? a[4] ?? '', i);
        i = ATTR.lastIndex;
      }
      while (/\s/.test(input[i] ?? '')) i++;
      if (stack.length) stack[stack.length - 1]!.children.push(el);
      if (input.startsWith('/>', i)) {
        i += 2;
        if (!stack.length) root = el;
      } else if (input[i] === '>') {
        i++;
        stack.push(el);
      } else fail(`malformed tag <${el.name}`);
    }
  }
  if (stack.length) fail(`unclosed element <${stack[stack.length - 1]!.name}>`);
  if (!root) fail('no root element');
  return root!;
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
