import { cutNote, HTML_LIMITS, parseHtmlBounded, type BoundedDocument, type HtmlElement, type HtmlLimits, type HtmlNode, type HtmlParent } from './htmlParse';

/**
 * HTML to readable text for the model: the title, then the visible text with paragraph
 * breaks, list bullets and link targets kept. Scripts, styles, templates, SVG, comments
 * and hidden subtrees are dropped, because text the reader never sees is exactly where
 * prompt injections hide. The page is parsed by parse5 (the WHATWG tree builder, the same
 * one browsers follow), so nesting, quoted `>` in attributes, unclosed tags, CDATA and
 * entities are read the way a browser reads them; no DOM scripting, no network. The parse
 * is bounded (htmlParse.ts) and the walk iterative, so a hostile page cannot stall or crash it.
 */

type Node = HtmlNode;
type Element = HtmlElement;

const DROP_WITH_CONTENT = new Set([
  'script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'head', 'select', 'canvas', 'title',
]);

const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'details', 'div', 'dl', 'dt', 'figcaption', 'figure',
  'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre',
  'section', 'summary', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'ul', 'caption',
]);

const isElement = (node: Node): node is Element => 'tagName' in node;

function attr(el: Element, name: string): string | null {
  return el.attrs.find((a) => a.name === name)?.value ?? null;
}

/** Hidden by the attribute, by ARIA, or by an inline style a reader's browser applies. */
function isHidden(el: Element): boolean {
  if (attr(el, 'hidden') !== null) return true;
  if ((attr(el, 'aria-hidden') ?? '').trim().toLowerCase() === 'true') return true;
  if (el.tagName === 'input' && (attr(el, 'type') ?? '').toLowerCase() === 'hidden') return true;
  const style = (attr(el, 'style') ?? '').toLowerCase().replace(/\/\*[\s\S]*?\*\//g, '');
  return /(^|;)\s*(display\s*:\s*none|visibility\s*:\s*(hidden|collapse)|content-visibility\s*:\s*hidden)\b/.test(style);
}

/** The first <title> in document order (iterative: a page may nest thousands of levels). */
function findTitle(root: HtmlParent): string {
  const stack: Node[] = [...root.childNodes].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (node.tagName === 'title') {
      return node.childNodes.map((n) => ('value' in n && n.nodeName === '#text' ? n.value : '')).join('').replace(/\s+/g, ' ').trim();
    }
    for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!);
  }
  return '';
}

export interface ReadableText {
  title: string;
  text: string;
  /** Why the page was cut before its end (see htmlParse's limits); null when read whole. */
  cut: string | null;
}

export function htmlToText(html: string, baseUrl?: string, limits: HtmlLimits = HTML_LIMITS): ReadableText {
  return readableText(parseHtmlBounded(html, limits), baseUrl);
}

/** The readable text of a page already parsed (web_fetch also reads the same parse's meta tags). */
export function readableText({ doc, cut }: BoundedDocument, baseUrl?: string): ReadableText {
  const out: string[] = [];
  let pre = 0;

  const text = (raw: string) => {
    // Preformatted indentation is protected from the line trim below by a private-use mark.
    out.push(pre ? raw.replace(/^[ \t]+/gm, (ws) => '\uE000'.repeat(ws.length)) : raw.replace(/[ \t\r\n\f]+/g, ' '));
  };

  // Depth-first with an explicit stack (a closing frame per element), so deep nesting cannot overflow the call stack.
  type Frame = { node: Node; closing: boolean };
  const stack: Frame[] = [...doc.childNodes].reverse().map((node) => ({ node, closing: false }));
  while (stack.length) {
    const { node: child, closing } = stack.pop()!;
    if (closing) {
      const el = child as Element;
      const name = el.tagName;
      if (name === 'pre') pre--;
      if (name === 'a') {
        const href = attr(el, 'href');
        if (href && /^\s*(https?:|\/)/i.test(href)) {
          let target = href.trim();
          try {
            if (baseUrl) target = new URL(target, baseUrl).href;
          } catch {
            // keep as written
          }
          out.push(` (${target})`);
        }
      }
      if (BLOCK.has(name) && name !== 'br' && name !== 'li') out.push('\n\n');
      continue;
    }
    if (child.nodeName === '#text') {
      text((child as { value: string }).value);
      continue;
    }
    if (!isElement(child)) continue; // comments, doctype
    const name = child.tagName;
    if (DROP_WITH_CONTENT.has(name) || isHidden(child)) continue;
    if (name === 'img') {
      const alt = attr(child, 'alt');
      if (alt) out.push(` [image: ${alt}] `);
      continue;
    }
    if (name === 'li') out.push('\n- ');
    else if (/^h[1-6]$/.test(name)) out.push(`\n\n${'#'.repeat(Number(name[1]))} `);
    else if (name === 'td' || name === 'th') out.push(' | ');
    else if (BLOCK.has(name)) out.push(name === 'br' ? '\n' : '\n\n');
    if (name === 'pre') pre++;
    stack.push({ node: child, closing: true });
    for (let i = child.childNodes.length - 1; i >= 0; i--) stack.push({ node: child.childNodes[i]!, closing: false });
  }
  if (cut) out.push(`\n\n${cutNote(cut)}`);

  const body = out
    .join('')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/g, '').replace(/^[ \t]+(?!- )/g, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .replace(/\uE000/g, ' ');
  return { title: findTitle(doc), text: body, cut };
}
