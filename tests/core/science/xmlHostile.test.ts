import { describe, expect, it } from 'vitest';
import { MAX_XML_CHARS, parseXml, XmlError } from '../../../src-main/core/science/xml';

// A science API answer is untrusted input: these are the shapes an attacker (or a broken proxy) could send.
describe('xml reader on hostile input', () => {
  it('never expands DOCTYPE entities: a nested "billion laughs" entity is an unknown entity, an external one is refused', () => {
    const laughs = '<!DOCTYPE a [<!ENTITY l "lol"><!ENTITY l2 "&l;&l;&l;&l;&l;&l;&l;&l;">]><a>&l2;</a>';
    expect(() => parseXml(laughs)).toThrow(/unknown entity &l2;/);
    const xxe = '<!DOCTYPE a [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><a>&xxe;</a>';
    expect(() => parseXml(xxe)).toThrow(XmlError);
  });

  it('refuses __proto__ as an element or attribute name and leaves Object.prototype alone', () => {
    expect(() => parseXml('<a __proto__="x"/>')).toThrow(XmlError);
    expect(() => parseXml('<a><__proto__><polluted>yes</polluted></__proto__></a>')).toThrow(XmlError);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('caps nesting depth and document size', () => {
    const deep = '<a>'.repeat(150) + '</a>'.repeat(150);
    expect(() => parseXml(deep)).toThrow(/nested/);
    expect(() => parseXml(`<a>${' '.repeat(MAX_XML_CHARS)}</a>`)).toThrow(/over the \d+-character limit/);
  });

  it('refuses a second root and text after a self-closed root, with the offset', () => {
    expect(() => parseXml('<a/><b/>')).toThrow('a second root element at offset 4');
    expect(() => parseXml('<a/>tail')).toThrow('text outside the root element at offset 4');
  });

  it('decodes numeric character references, keeps mixed content in document order, accepts a byte-order mark', () => {
    const root = parseXml('\uFEFF<a t="&#x41;">x<b>&#128512;</b>y<![CDATA[&amp;]]></a>');
    expect(root.attrs.t).toBe('A');
    expect(root.children).toEqual(['x', { name: 'b', attrs: {}, children: ['😀'] }, 'y', '&amp;']);
  });
});
