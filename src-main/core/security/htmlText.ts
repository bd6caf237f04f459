/**
 * HTML to readable text for the model: the title, then the visible text with paragraph
 * breaks, list bullets and link targets kept. Scripts, styles, templates, SVG, comments
 * and hidden elements are dropped, because text the reader never sees is exactly where
 * prompt injections hide. A deliberately small tokenizer: no DOM, no network, no eval.
 */

const DROP_WITH_CONTENT = ['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'head', 'select', 'canvas'];

const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'details', 'div', 'dl', 'dt', 'figcaption', 'figure',
  'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre',
  'section', 'summary', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'ul', 'caption',
]);

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', hellip: '…',
  laquo: '«', raquo: '»', copy: '©', reg: '®', deg: '°', plusmn: '±', times: '×', middot: '·', bull: '•',
  lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', mu: 'μ', micro: 'µ',
  Aring: 'Å', angst: 'Å', sup2: '²', sup3: '³', frac12: '½', le: '≤', ge: '≥', ne: '≠', rarr: '→', larr: '←',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);?/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
      return String.fromCodePoint(code);
    }
    return NAMED[body] ?? whole;
  });
}

function attr(tag: string, name: string): string | null {
  const m = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? decodeEntities(m[2] ?? m[3] ?? m[4] ?? '') : null;
}

const isHidden = (tag: string): boolean =>
  /\shidden(\s|=|>|\/)/i.test(tag) || /aria-hidden\s*=\s*["']?true/i.test(tag) || /style\s*=\s*["'][^"']*(display\s*:\s*none|visibility\s*:\s*hidden)/i.test(tag);

export interface ReadableText {
  title: string;
  text: string;
}

export function htmlToText(html: string, baseUrl?: string): ReadableText {
  let src = html.replace(/<!--[\s\S]*?(-->|$)/g, ' ').replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, ' ');
  const titleMatch = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(src);
  const title = titleMatch ? decodeEntities(titleMatch[1]!.replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim() : '';
  for (const name of DROP_WITH_CONTENT) {
    src = src.replace(new RegExp(`<${name}\\b[\\s\\S]*?(<\\/${name}\\s*>|$)`, 'gi'), ' ');
  }

  const out: string[] = [];
  const hiddenStack: string[] = [];
  let pre = 0;
  let pendingHref: string | null = null;
  const tagRe = /<\/?([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*>|<[!?][^>]*>/g;
  let last = 0;
  const emitText = (raw: string) => {
    if (hiddenStack.length) return;
    const t = decodeEntities(raw);
    // Preformatted indentation is protected from the line trim below by a private-use mark.
    out.push(pre ? t.replace(/^[ \t]+/gm, (ws) => '\uE000'.repeat(ws.length)) : t.replace(/[ \t\r\n\f]+/g, ' '));
  };
  for (let m = tagRe.exec(src); m; m = tagRe.exec(src)) {
    emitText(src.slice(last, m.index));
    last = tagRe.lastIndex;
    const tag = m[0];
    const name = (m[1] ?? '').toLowerCase();
    if (!name) continue;
    const closing = tag[1] === '/';
    const selfClosing = /\/>$/.test(tag) || ['br', 'hr', 'img', 'input', 'meta', 'link', 'wbr'].includes(name);
    if (!closing && !selfClosing && isHidden(tag)) {
      hiddenStack.push(name);
      continue;
    }
    if (closing && hiddenStack.length && hiddenStack[hiddenStack.length - 1] === name) {
      hiddenStack.pop();
      continue;
    }
    if (hiddenStack.length) continue;
    if (name === 'pre') pre += closing ? -1 : 1;
    if (name === 'a') {
      if (!closing) pendingHref = attr(tag, 'href');
      else if (pendingHref && /^https?:|^\//i.test(pendingHref)) {
        let href = pendingHref;
        try {
          if (baseUrl) href = new URL(pendingHref, baseUrl).href;
        } catch {
          // keep as written
        }
        out.push(` (${href})`);
        pendingHref = null;
      } else pendingHref = null;
      continue;
    }
    if (name === 'img' && !closing) {
      const alt = attr(tag, 'alt');
      if (alt) out.push(` [image: ${alt}] `);
      continue;
    }
    if (name === 'li') {
      if (!closing) out.push('\n- ');
    }
    else if (/^h[1-6]$/.test(name) && !closing) out.push(`\n\n${'#'.repeat(Number(name[1]))} `);
    else if ((name === 'td' || name === 'th') && !closing) out.push(' | ');
    else if (BLOCK.has(name)) out.push(name === 'br' ? '\n' : '\n\n');
  }
  emitText(src.slice(last));
  const text = out
    .join('')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/g, '').replace(/^[ \t]+(?!- )/g, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .replace(/\uE000/g, ' ');
  return { title, text };
}
