import { Parser, defaultTreeAdapter } from 'parse5';
import type { DefaultTreeAdapterMap, TreeAdapter } from 'parse5';

/**
 * parse5 with limits, for pages from the network. parse5 follows the WHATWG tree builder,
 * whose scope checks walk the stack of open elements on every tag: a page of 40,000 nested
 * `<div>`s takes 30 s of main-process CPU, and 20,000 nested `<template>`s overflow the
 * stack in its end-of-file handling. Its tokenizer checks each attribute's name against
 * every earlier one of the tag, so a tag with 100,000 attributes is quadratic too. Past a
 * limit the parse stops and the document built so far is returned with a note of the cut;
 * nothing after the cut is read, so no text the page hides later can leak out unparsed.
 */

export type HtmlNode = DefaultTreeAdapterMap['node'];
export type HtmlElement = DefaultTreeAdapterMap['element'];
export type HtmlParent = DefaultTreeAdapterMap['parentNode'];
export type HtmlDocument = DefaultTreeAdapterMap['document'];

export interface HtmlLimits {
  /** Characters read; a longer page is cut there. */
  maxChars: number;
  /** Open elements at once (Blink's tree builder stops nesting at 512 too). */
  maxDepth: number;
  /** Elements in the whole page. */
  maxElements: number;
  /** Attributes on one tag. */
  maxAttributes: number;
}

// maxChars matches web_fetch's 2 MiB download cap (parse5 reads about a million characters a second here).
export const HTML_LIMITS: HtmlLimits = { maxChars: 2 * 1024 * 1024, maxDepth: 512, maxElements: 100_000, maxAttributes: 256 };

export interface BoundedDocument {
  doc: HtmlDocument;
  /** Why the page was cut, one line for the reader; null when it was read whole. */
  cut: string | null;
}

class Cut extends Error {}

/** The parse5 internals the limits hook into (the Parser class is exported but marked internal). */
interface ParserInternals {
  document: HtmlDocument;
  openElements: { stackTop: number };
  onItemPush(element: HtmlElement, tagId: number, isTop: boolean): void;
  tokenizer: { write(chunk: string, isLastChunk: boolean): void; _leaveAttrName(): void; currentToken: { attrs?: unknown[] } | null };
}

export function parseHtmlBounded(html: string, limits: HtmlLimits = HTML_LIMITS): BoundedDocument {
  let elements = 0;
  const adapter: TreeAdapter<DefaultTreeAdapterMap> = {
    ...defaultTreeAdapter,
    createElement(tagName, namespaceURI, attrs) {
      if (++elements > limits.maxElements) throw new Cut(`the page has more than ${limits.maxElements.toLocaleString('en-US')} elements`);
      return defaultTreeAdapter.createElement(tagName, namespaceURI, attrs);
    },
  };
  const parser = new Parser({ treeAdapter: adapter }) as unknown as ParserInternals;
  const { tokenizer } = parser;
  if (typeof parser.onItemPush !== 'function' || typeof tokenizer._leaveAttrName !== 'function' || typeof parser.openElements?.stackTop !== 'number') {
    // A parse5 upgrade moved what the limits hook into; parsing unbounded would let one page stall the app.
    throw new Error('parse5 internals changed: the HTML limits in src-main/core/security/htmlParse.ts cannot be installed; update it for this parse5 version.');
  }
  const onItemPush = parser.onItemPush.bind(parser);
  parser.onItemPush = (element, tagId, isTop) => {
    if (parser.openElements.stackTop >= limits.maxDepth) throw new Cut(`its elements nest deeper than ${limits.maxDepth} levels`);
    onItemPush(element, tagId, isTop);
  };
  const leaveAttrName = tokenizer._leaveAttrName.bind(tokenizer);
  tokenizer._leaveAttrName = () => {
    if ((tokenizer.currentToken?.attrs?.length ?? 0) >= limits.maxAttributes) throw new Cut(`a tag has more than ${limits.maxAttributes} attributes`);
    leaveAttrName();
  };

  let cut: string | null = null;
  const input = html.length > limits.maxChars ? html.slice(0, limits.maxChars) : html;
  if (input.length < html.length) cut = `the page is ${html.length.toLocaleString('en-US')} characters, over the ${limits.maxChars.toLocaleString('en-US')} read`;
  try {
    tokenizer.write(input, true);
  } catch (error) {
    if (!(error instanceof Cut)) throw error;
    cut = error.message;
  }
  return { doc: parser.document, cut };
}

/** The note a reader sees where the page was cut. */
export function cutNote(cut: string): string {
  return `[Page cut: ${cut}; the rest of the page is not read.]`;
}

const isElement = (node: HtmlNode): node is HtmlElement => 'tagName' in node;

function childrenOf(node: HtmlNode): HtmlNode[] {
  const children: HtmlNode[] = 'childNodes' in node ? [...node.childNodes] : [];
  // A template's children live in its content fragment.
  if (isElement(node) && node.tagName === 'template' && 'content' in node) children.push((node as unknown as { content: HtmlNode }).content);
  return children;
}

/** Every element under `root` (itself included) in document order, without recursion. */
export function* elementsOf(root: HtmlNode): Generator<HtmlElement> {
  const stack: HtmlNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (isElement(node)) yield node;
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

/** The concatenated text under a node, without recursion. */
export function textOf(root: HtmlNode): string {
  const parts: string[] = [];
  const stack: HtmlNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.nodeName === '#text') parts.push((node as DefaultTreeAdapterMap['textNode']).value);
    const children = 'childNodes' in node ? node.childNodes : [];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return parts.join('');
}
