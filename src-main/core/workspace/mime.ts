import path from 'node:path';

const MIME: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml', pdf: 'application/pdf',
  csv: 'text/csv', tsv: 'text/tab-separated-values', txt: 'text/plain', md: 'text/markdown', json: 'application/json',
  html: 'text/html', fasta: 'text/x-fasta', fa: 'text/x-fasta', pdb: 'chemical/x-pdb', cif: 'chemical/x-mmcif',
  parquet: 'application/vnd.apache.parquet', rds: 'application/x-r-data', npy: 'application/x-npy',
  py: 'text/x-python', r: 'text/x-r', log: 'text/plain', yaml: 'application/yaml', yml: 'application/yaml', bib: 'application/x-bibtex',
};

/** The MIME type of a file by its extension (artifact versions and workspace previews); octet-stream when unknown. */
export function guessMime(p: string): string {
  return MIME[path.extname(p).slice(1).toLowerCase()] ?? 'application/octet-stream';
}
