import path from 'node:path';
import type { CliCommand } from '../command';
import { bibliographyEntries, formatBibliography, type BibliographyFormat } from '../../core/export/bibliography';
import { errorMessage } from '../../core/shared/errorMessage';
import { writeFileAtomic } from '../../core/shared/writeFileAtomic';
import { outputFileProblem } from '../outputFile';
import { sessionArgProblem, usageError } from '../sessionArg';

const USAGE = [
  'openai4s bibliography <sessionId> [--format bibtex|ris] [--out FILE] [--force] [--all] [--json]',
  '',
  "Exports the session's literature evidence (the Science Navigator's references, PubMed, Europe PMC,",
  'arXiv, OpenAlex and Crossref records, web pages read, PDFs) as BibTeX (default) or RIS, with DOIs.',
  'Prints it, or writes FILE (never inside the app’s data folder; --force replaces an existing file).',
  '--all adds search results that were found but not cited as references.',
  '--json reports the entries (and the file written) instead.',
].join('\n');

export const bibliographyCommand: CliCommand = {
  name: 'bibliography',
  summary: "Export a session's literature evidence as BibTeX or RIS",
  usage: USAGE,
  options: { format: { type: 'string' }, out: { type: 'string' }, force: { type: 'boolean' }, all: { type: 'boolean' }, json: { type: 'boolean' } },
  needsCore: true,
  async run({ core, values, positionals, io }) {
    const problem = sessionArgProblem('bibliography', positionals);
    if (problem) return usageError(io, 'bibliography')(problem);
    const sessionId = positionals[0]!;
    const format = (typeof values.format === 'string' ? values.format : 'bibtex').toLowerCase();
    if (format !== 'bibtex' && format !== 'ris') {
      io.err(`--format ${String(values.format)} is not one of bibtex, ris.`);
      return 2;
    }
    try {
      core!.ledger.sessions.require(sessionId);
    } catch (error) {
      io.err(errorMessage(error));
      return 1;
    }
    const records = core!.provenance.evidence.list(sessionId);
    const entries = bibliographyEntries(records, { includeSearchResults: values.all === true });
    const text = formatBibliography(entries, format as BibliographyFormat);
    let written: string | null = null;
    if (typeof values.out === 'string') {
      const refused = outputFileProblem(values.out, core!.config.dataDir, values.force === true);
      if (refused) {
        io.err(`openai4s bibliography: ${refused}`);
        return 1;
      }
      written = path.resolve(values.out);
      try {
        writeFileAtomic(written, text);
      } catch (error) {
        io.err(`openai4s bibliography: ${errorMessage(error)}`);
        return 1;
      }
    }
    if (values.json) {
      io.out(JSON.stringify({ sessionId, format, count: entries.length, file: written, entries }, null, 2));
      return 0;
    }
    if (written) io.out(`Wrote ${entries.length} ${format === 'bibtex' ? 'BibTeX' : 'RIS'} entr${entries.length === 1 ? 'y' : 'ies'} to ${written}.`);
    else if (!entries.length) io.err(`No literature evidence in session ${sessionId} (references, papers, pages or PDFs the agent retrieved).`);
    else if (io.write) io.write(text);
    else io.out(text);
    return 0;
  },
};
