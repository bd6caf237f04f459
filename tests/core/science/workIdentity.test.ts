import { describe, expect, it } from 'vitest';
import { arxivOfDoi, bareDoi, idsOfDoi, idsOfUrl, normalizeDoi, normalizePmcid, normalizePmid, parseArxivId } from '../../../src-main/core/science/workIdentity';

describe('a DOI as one identity', () => {
  it('is the same DOI in any case and behind doi:, info:doi/, urn:doi: and doi.org links (http, https, dx., www.)', () => {
    const forms = [
      '10.1158/0008-5472.CAN-09-4563',
      '10.1158/0008-5472.can-09-4563',
      'doi:10.1158/0008-5472.CAN-09-4563',
      'DOI: 10.1158/0008-5472.CAN-09-4563',
      'info:doi/10.1158/0008-5472.CAN-09-4563',
      'urn:doi:10.1158/0008-5472.CAN-09-4563',
      'https://doi.org/10.1158/0008-5472.CAN-09-4563',
      'HTTPS://DOI.ORG/10.1158/0008-5472.CAN-09-4563',
      'http://dx.doi.org/10.1158/0008-5472.CAN-09-4563',
      'https://www.doi.org/10.1158/0008-5472.CAN-09-4563',
      '  https://doi.org/10.1158%2F0008-5472.CAN-09-4563  ',
    ];
    expect(new Set(forms.map(normalizeDoi))).toEqual(new Set(['10.1158/0008-5472.can-09-4563']));
  });

  it('ends a DOI link at its query or fragment, keeps non-ASCII letters as written, and names nothing that is no DOI', () => {
    expect(normalizeDoi('https://doi.org/10.1016/j.xgen.2025.100814?utm_source=x#sec1')).toBe('10.1016/j.xgen.2025.100814');
    // DOIs are case-insensitive in ASCII only.
    expect(normalizeDoi('10.1000/ÄBC')).toBe('10.1000/Äbc');
    for (const no of ['', '10.1/x', '11.1000/x', 'https://example.org/10.1000/x', 'doi.org/', 'https://doi.org/not-a-doi']) expect(normalizeDoi(no)).toBe('');
  });

  it('is written bare in its own case for a doi field: no prefix, no link, escapes decoded', () => {
    expect(bareDoi('https://doi.org/10.1056%2FNEJMoa2031054?x=1')).toBe('10.1056/NEJMoa2031054');
    expect(bareDoi('doi:10.1056/NEJMoa2031054')).toBe('10.1056/NEJMoa2031054');
    expect(bareDoi('see the paper')).toBe('');
  });

  it('names the e-print when it is arXiv’s own DOI (10.48550/arXiv.<id>), in any case', () => {
    expect(arxivOfDoi('10.48550/arXiv.1605.08386')).toEqual({ id: '1605.08386', version: '' });
    expect(idsOfDoi('https://doi.org/10.48550/ARXIV.1605.08386')).toEqual({ arxiv: { id: '1605.08386', version: '' } });
    expect(idsOfDoi('10.1109/ICSTW55395.2022.00035')).toEqual({ doi: '10.1109/icstw55395.2022.00035' });
  });
});

describe('an arXiv e-print as one identity', () => {
  it('is the e-print without its version, with the version apart; an arXiv: prefix and a capital V are the same', () => {
    expect(parseArxivId('1605.08386v2')).toEqual({ id: '1605.08386', version: 'v2' });
    expect(parseArxivId('arXiv:1605.08386')).toEqual({ id: '1605.08386', version: '' });
    expect(parseArxivId('ARXIV: 2106.01345V10')).toEqual({ id: '2106.01345', version: 'v10' });
    expect(parseArxivId('0704.0001')).toEqual({ id: '0704.0001', version: '' });
    expect(parseArxivId('1412.99999')).toBeNull();
  });

  it('reads old-style ids: archive and number, the subject class (math.GT) no part of the identity, the archive in any case', () => {
    expect(parseArxivId('hep-th/9901001')).toEqual({ id: 'hep-th/9901001', version: '' });
    expect(parseArxivId('hep-th/9901001v3')).toEqual({ id: 'hep-th/9901001', version: 'v3' });
    expect(parseArxivId('math.GT/0309136')).toEqual({ id: 'math/0309136', version: '' });
    expect(parseArxivId('arXiv:Math/0309136v1')).toEqual({ id: 'math/0309136', version: 'v1' });
    // Another archive with the same number is another e-print.
    expect(parseArxivId('hep-ph/9901001')!.id).not.toBe(parseArxivId('hep-th/9901001')!.id);
  });

  it('names no e-print for text that only looks like one', () => {
    for (const no of ['', '1605.0838', '1605.083861', '16050.8386', 'hep-th/990100', 'hep-th/99010011', '1605.08386v', '1605.08386 v2', '/9901001', 'hep-th/9901001/']) expect(parseArxivId(no)).toBeNull();
  });
});

describe('the work a link names', () => {
  it('arXiv abstract and PDF links, with a version, .pdf, a query string or a fragment, on arxiv.org, www. and export.', () => {
    const eprint = { arxiv: { id: '1605.08386', version: 'v2' } };
    expect(idsOfUrl('https://arxiv.org/pdf/1605.08386v2')).toEqual(eprint);
    expect(idsOfUrl('https://arxiv.org/pdf/1605.08386v2?download=1')).toEqual(eprint);
    expect(idsOfUrl('https://arxiv.org/pdf/1605.08386v2.pdf#page=3')).toEqual(eprint);
    expect(idsOfUrl('http://export.arxiv.org/abs/1605.08386v2')).toEqual(eprint);
    expect(idsOfUrl('https://www.arxiv.org/abs/1605.08386v2/')).toEqual(eprint);
    expect(idsOfUrl('https://arxiv.org/abs/hep-th/9901001')).toEqual({ arxiv: { id: 'hep-th/9901001', version: '' } });
    expect(idsOfUrl('https://arxiv.org/pdf/math.GT/0309136v1.pdf')).toEqual({ arxiv: { id: 'math/0309136', version: 'v1' } });
  });

  it('doi.org, PubMed, PMC and Europe PMC links; a look-alike host or another path names nothing', () => {
    expect(idsOfUrl('https://doi.org/10.1016/J.XGEN.2025.100814')).toEqual({ doi: '10.1016/j.xgen.2025.100814' });
    expect(idsOfUrl('https://pubmed.ncbi.nlm.nih.gov/20516115/')).toEqual({ pmid: '20516115' });
    expect(idsOfUrl('https://www.ncbi.nlm.nih.gov/pubmed/20516115')).toEqual({ pmid: '20516115' });
    expect(idsOfUrl('https://www.ncbi.nlm.nih.gov/pmc/articles/PMC3040717/')).toEqual({ pmcid: 'PMC3040717' });
    expect(idsOfUrl('https://pmc.ncbi.nlm.nih.gov/articles/pmc3040717/')).toEqual({ pmcid: 'PMC3040717' });
    expect(idsOfUrl('https://europepmc.org/article/MED/20516115')).toEqual({ pmid: '20516115' });
    expect(idsOfUrl('https://europepmc.org/article/PMC/PMC3040717')).toEqual({ pmcid: 'PMC3040717' });
    expect(idsOfUrl('https://europepmc.org/backend/ptpmcrender.fcgi?accid=PMC3040717&blobtype=pdf')).toEqual({ pmcid: 'PMC3040717' });
    for (const no of ['https://arxiv.org.evil.example/abs/1605.08386', 'https://evil.example/arxiv.org/abs/1605.08386', 'https://arxiv.org/list/hep-th/9901001', 'https://doi.org.evil.example/10.1000/x', 'ftp://arxiv.org/pdf/1605.08386', 'not a url', 'https://pubmed.ncbi.nlm.nih.gov/?term=20516115']) {
      expect(idsOfUrl(no)).toEqual({});
    }
  });

  it('reads PMIDs and PMCIDs with their prefixes and leading zeros as one', () => {
    expect(normalizePmid('PMID: 020516115')).toBe('20516115');
    expect(normalizePmcid('pmc03040717')).toBe('PMC3040717');
    expect(normalizePmid('PMC3040717')).toBe('');
    expect(normalizePmcid('3040717')).toBe('');
  });
});
