import { describe, expect, it } from 'vitest';
import { authorsField, displayAuthor, fullPageRange, medlineAuthor, MAX_CITATION_AUTHORS, personAuthor, yearIn } from '../../../src-main/core/science/citation';

describe('citation names', () => {
  it('reads MEDLINE names (PubMed esummary, Europe PMC): family, initials spelt out, suffix; a consortium whole', () => {
    expect(medlineAuthor('LoPresti PJ')).toEqual({ family: 'LoPresti', given: 'P. J.' });
    expect(medlineAuthor('Hambrick GW Jr')).toEqual({ family: 'Hambrick', given: 'G. W.', suffix: 'Jr' });
    expect(medlineAuthor('De Luca F')).toEqual({ family: 'De Luca', given: 'F.' });
    expect(medlineAuthor('Glover JN.')).toEqual({ family: 'Glover', given: 'J. N.' });
    expect(medlineAuthor('BRCA1 Exon 11 Consortium')).toEqual({ literal: 'BRCA1 Exon 11 Consortium' });
  });

  it('reads display names (arXiv, OpenAlex, the Navigator): last word the family with its particles, suffixes, "Family, Given"', () => {
    expect(displayAuthor('Andrew V. Anzalone')).toEqual({ family: 'Anzalone', given: 'Andrew V.' });
    expect(displayAuthor('Ludwig van Beethoven')).toEqual({ family: 'van Beethoven', given: 'Ludwig' });
    expect(displayAuthor('Martin Luther King, Jr.')).toEqual({ family: 'King', given: 'Martin Luther', suffix: 'Jr.' });
    expect(displayAuthor('Herger, Michael')).toEqual({ family: 'Herger', given: 'Michael' });
    expect(displayAuthor('Plato')).toEqual({ name: 'Plato' });
  });

  it('keeps an organisation named without family/given whole, and caps long author lists with their count', () => {
    expect(personAuthor('', '', 'ATLAS Collaboration')).toEqual({ literal: 'ATLAS Collaboration' });
    const many = authorsField(Array.from({ length: MAX_CITATION_AUTHORS + 5 }, (_, i) => personAuthor(`F${i}`, 'G')));
    expect(many.authors).toHaveLength(MAX_CITATION_AUTHORS);
    expect(many.author_count).toBe(MAX_CITATION_AUTHORS + 5);
  });

  it('writes out abbreviated MEDLINE page ranges and finds the year in date texts', () => {
    expect(fullPageRange('188-91')).toBe('188-191');
    expect(fullPageRange('4880-4890')).toBe('4880-4890');
    expect(fullPageRange('e1001')).toBe('e1001');
    expect(yearIn('1998 Dec-1999 Jan')).toBe(1998);
    expect(yearIn('2016-05-26T17:59:46Z')).toBe(2016);
    expect(yearIn('Spring')).toBeUndefined();
  });
});
