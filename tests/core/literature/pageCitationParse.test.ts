import { describe, expect, it } from 'vitest';
import { webFetchTool } from '../../../src-main/core/capabilities/tools/webTools';
import { recordPageEvidence } from '../../../src-main/core/provenance/evidenceRecords';
import { MemoryEvidenceStore } from '../../../src-main/core/records/evidenceStore';
import { MAX_CITATION_AUTHORS } from '../../../src-main/core/science/citation';
import { doiOf, pageCitation } from '../../../src-main/core/science/pageCitation';
import { HTML_LIMITS, parseHtmlBounded } from '../../../src-main/core/security/htmlParse';
import { loopback } from '../security/loopback';

/**
 * How a page's citation meta tags are read (science/pageCitation.ts): the spellings real
 * pages use, and hostile pages that must stay bounded (the walk is over web_fetch's own
 * bounded parse, so a page costs at most its 2 MiB and 100,000 elements).
 */

const citationOf = (html: string) => pageCitation(parseHtmlBounded(html).doc);
const head = (tags: string) => `<!doctype html><html><head><title>t</title>${tags}</head><body><p>x</p></body></html>`;

describe('citation meta tags as pages write them', () => {
  it('reads attributes in any order and quoting, upper-case names, property= and decodes entities', () => {
    const c = citationOf(
      head(
        `<meta content="Jos&eacute; Garc&#237;a" name="citation_author"><meta name='citation_author' content='O&#39;Brien, Siobh&aacute;n'><meta NAME=citation_author CONTENT=Wei&#x20;Zhang>` +
          `<meta property="citation_title" content="Sox2 &amp; Oct4 &lt;in vivo&gt;"><meta name="citation_journal_title" content="Genes &amp; Development">`,
      ),
    );
    expect(c).toEqual({
      title: 'Sox2 & Oct4 <in vivo>',
      authors: [
        { family: 'García', given: 'José' },
        { family: "O'Brien", given: 'Siobhán' },
        { family: 'Zhang', given: 'Wei' },
      ],
      journal: 'Genes & Development',
    });
  });

  it('takes the DOI as "10.x/y", "doi:", "info:doi/" or a doi.org URL, and no other identifier', () => {
    expect(doiOf('10.1038/s41586-019-1711-4')).toBe('10.1038/s41586-019-1711-4');
    expect(doiOf('doi:10.1038/nature12373')).toBe('10.1038/nature12373');
    expect(doiOf('info:doi/10.1371/journal.pone.0000217')).toBe('10.1371/journal.pone.0000217');
    expect(doiOf('https://doi.org/10.1016/j.cell.2020.01.001')).toBe('10.1016/j.cell.2020.01.001');
    expect(doiOf('https://hdl.handle.net/1721.1/12345')).toBe('');
    expect(doiOf('ISSN 2666-979X')).toBe('');
    const c = citationOf(head('<meta name="DC.title" content="T"><meta name="dc.Identifier" content="urn:isbn:9780262033848"><meta name="DCTERMS.identifier" content="info:doi/10.1371/journal.pone.0000217">'));
    expect(c).toEqual({ title: 'T', doi: '10.1371/journal.pone.0000217' });
  });

  it('reads the old one-tag citation_authors list, keeps an organisation whole and writes a page range out', () => {
    const c = citationOf(
      head(
        '<meta name="citation_title" content="T"><meta name="citation_authors" content="Smith, Jane; Doe, John; The Cancer Genome Atlas Research Network">' +
          '<meta name="citation_firstpage" content="1188"><meta name="citation_lastpage" content="91"><meta name="citation_date" content="March 15, 2021">',
      ),
    );
    expect(c).toEqual({
      title: 'T',
      authors: [{ family: 'Smith', given: 'Jane' }, { family: 'Doe', given: 'John' }, { literal: 'The Cancer Genome Atlas Research Network' }],
      year: 2021,
      pages: '1188-1191',
    });
    expect(citationOf(head('<meta name="citation_title" content="T"><meta name="citation_firstpage" content="e100"><meta name="citation_lastpage" content="e100">'))).toEqual({ title: 'T', pages: 'e100' });
  });

  it('prefers Highwire authors to DC creators, and the publication date to the online date', () => {
    const c = citationOf(
      head('<meta name="dc.creator" content="Someone Else"><meta name="citation_author" content="Ann Lee"><meta name="citation_online_date" content="2020/12/30"><meta name="citation_publication_date" content="2021/03/15"><meta name="dc.date" content="2019">'),
    );
    expect(c).toEqual({ authors: [{ family: 'Lee', given: 'Ann' }], year: 2021 });
  });

  it('skips empty tags: an empty author is not counted (no "and others"), an empty title does not hide the DC one', () => {
    const c = citationOf(head('<meta name="citation_title" content=" "><meta name="dc.title" content="DC title"><meta name="citation_author" content="Ann Lee"><meta name="citation_author" content=""><meta name="citation_author">'));
    expect(c).toEqual({ title: 'DC title', authors: [{ family: 'Lee', given: 'Ann' }] });
  });

  it('og:title titles a citation the other tags start, and alone makes none', () => {
    expect(citationOf(head('<meta property="og:title" content="Blog post"><meta name="description" content="d">'))).toBeUndefined();
    expect(citationOf(head('<meta property="og:title" content="The Paper"><meta name="citation_doi" content="10.1000/xyz">'))).toEqual({ title: 'The Paper', doi: '10.1000/xyz' });
    expect(citationOf(head('<meta property="og:title" content="Site | Paper"><meta name="citation_title" content="Paper">'))).toEqual({ title: 'Paper' });
    // Tags the citation does not use (language, ISSN, references) make none either.
    expect(citationOf(head('<meta name="citation_language" content="en"><meta name="citation_reference" content="citation_author=A. B.;citation_title=X"><meta name="dc.language" content="en">'))).toBeUndefined();
  });

  it('reads tags a stray element pushed into the body, but not a template’s content', () => {
    expect(citationOf('<html><head><img src=x><meta name="citation_title" content="After the image"></head><body></body></html>')).toEqual({ title: 'After the image' });
    expect(citationOf(head('<template><meta name="citation_title" content="Not in the document"></template>'))).toBeUndefined();
  });

  it(`keeps ${MAX_CITATION_AUTHORS} authors of a longer list, and counts them all`, () => {
    const tags = Array.from({ length: 250 }, (_, i) => `<meta name="citation_author" content="Given${i} Family${i}">`).join('\n');
    const c = citationOf(head(`<meta name="citation_title" content="Big collaboration">${tags}`))!;
    expect(c.authors).toHaveLength(MAX_CITATION_AUTHORS);
    expect(c.authors![99]).toEqual({ family: 'Family99', given: 'Given99' });
    expect(c.author_count).toBe(250);
  });
});

describe('hostile pages stay fast and bounded', () => {
  const SLOW = 60_000;

  it('100,000 meta tags: the parse stops at its element limit and the citation keeps 100 short authors', () => {
    const html = `<html><head><meta name="citation_title" content="Many">${'<meta name=citation_author content=A>'.repeat(100_000)}</head><body>x</body></html>`;
    // Past web_fetch's 2 MiB (which alone would cut this page first) to reach the element limit.
    const parsed = parseHtmlBounded(html, { ...HTML_LIMITS, maxChars: 10_000_000 });
    expect(parsed.cut).toBe('the page has more than 100,000 elements');
    const c = pageCitation(parsed.doc)!;
    expect(c.title).toBe('Many');
    expect(c.authors).toHaveLength(MAX_CITATION_AUTHORS);
    // Every author tag the parse kept: the limit counts <html>, <head> and the title tag too.
    expect(c.author_count).toBe(HTML_LIMITS.maxElements - 3);
    expect(JSON.stringify(c).length).toBeLessThan(2_000);
  }, SLOW);

  it('a value of a megabyte is kept to 1,000 characters, a name to 300', () => {
    const c = citationOf(head(`<meta name="citation_title" content="${'T'.repeat(1_000_000)}"><meta name="citation_author" content="Ann ${'B'.repeat(1_000_000)}">`))!;
    expect(c.title).toHaveLength(1_000);
    expect(c.authors).toEqual([{ family: 'B'.repeat(296), given: 'Ann' }]);
  }, SLOW);

  it('an unterminated attribute swallows the rest of the page, and the tags before it are still read', () => {
    const html = `<html><head><meta name="citation_title" content="Before"><meta name="citation_author" content="Ann Lee"><meta name="citation_doi" content="10.1/x${' <meta name=citation_volume content=9>'.repeat(20_000)}</head><body><p>never seen</p>`;
    expect(citationOf(html)).toEqual({ title: 'Before', authors: [{ family: 'Lee', given: 'Ann' }] });
    // A quote left open in a name: the tag is garbage to the tokenizer, not a slow path.
    expect(citationOf(`<head><meta name='citation_title content="x">${'a'.repeat(500_000)}`)).toBeUndefined();
  }, SLOW);

  it('a 5 MB head through web_fetch: the download is cut at 2 MiB, the citation before the cut is kept, the model reads no more', async () => {
    const tags = '<meta name="citation_title" content="Heavy head"><meta name="citation_author" content="Ann Lee"><meta name="citation_doi" content="10.1000/heavy">';
    const padding = Array.from({ length: 50_000 }, (_, i) => `<meta name="citation_keywords" content="keyword ${i} ${'k'.repeat(80)}">`).join('');
    const html = `<!doctype html><html><head><title>Heavy</title>${tags}${padding}</head><body><p>Body text.</p></body></html>`;
    expect(html.length).toBeGreaterThan(5_000_000);
    const server = await loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(html);
    });
    const store = new MemoryEvidenceStore();
    const tool = webFetchTool({ egress: { allowAddress: (address, port) => address === '127.0.0.1' && port === server.port }, onPage: (p) => recordPageEvidence(store, p).id });
    const out = await tool.execute({ url: `${server.origin}/heavy` }, { sessionId: 's1', runId: 'r1', workspace: '/tmp', signal: new AbortController().signal, origin: 'tool' });
    expect(out.text).toContain('Note: the response was over the size cap and was cut.');
    expect(out.text).not.toContain('Heavy head');
    expect(out.text).not.toContain('10.1000/heavy');
    const record = store.get('s1', (out.output as { evidenceId: string }).evidenceId)!;
    expect(record.envelope.citation).toEqual({ title: 'Heavy head', authors: [{ family: 'Lee', given: 'Ann' }], doi: '10.1000/heavy' });
  }, SLOW);
});
