/**
 * A Markdown link to a file of the export, relative to the zip's root (where README.md
 * and notebook.ipynb are), so it opens from the unzipped folder in any Markdown viewer or
 * in Jupyter. Each path segment is percent-encoded (spaces, `#`, `?`, parentheses,
 * non-ASCII); the text has Markdown's markup characters escaped, so a file name cannot
 * become markup.
 */
export function markdownFileLink(file: string, text = file): string {
  const encode = (segment: string) => encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const target = file.split('/').map(encode).join('/');
  const label = text.replace(/[\\`*_[\]<>]/g, (c) => `\\${c}`).replace(/\s+/g, ' ');
  return `[${label}](${target})`;
}
