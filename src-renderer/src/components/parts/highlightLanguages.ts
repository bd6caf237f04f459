import bash from 'highlight.js/lib/languages/bash';
import diff from 'highlight.js/lib/languages/diff';
import json from 'highlight.js/lib/languages/json';
import latex from 'highlight.js/lib/languages/latex';
import markdown from 'highlight.js/lib/languages/markdown';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import r from 'highlight.js/lib/languages/r';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

/**
 * The code languages highlighted in model text: what a research run writes and
 * shows (its two kernel languages, the shell, data formats, queries, LaTeX). Each
 * grammar's own aliases come with it (py, sh, zsh, console, html, yml, tex...). A
 * fence in any other language is shown unhighlighted (`ignoreMissing`).
 */
export const HIGHLIGHT_LANGUAGES = {
  bash,
  diff,
  json,
  latex,
  markdown,
  plaintext,
  python,
  r,
  shell,
  sql,
  xml,
  yaml,
};
