import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mergeHistory } from '../../../../src-main/core/science/navigator/history';
import { jsonChildTexts, jsonValueText } from '../../../../src-main/core/science/navigator/jsonSpan';
import type { Receipt } from '../../../../src-main/core/science/navigator/receipts';
import { Snp2Merger } from '../../../../src-main/core/science/navigator/snp2';

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('jsonChildTexts', () => {
  it('splits an object into its members and an array into its elements, exactly as written', () => {
    const text = '{ "a" : { "x":1 ,"y" : "\\u00e9}" } , "list": [ 1 , {"k": [ ] } ,"s\\"]" ], "a": [ 2 ] }';
    // A duplicate key: the last one, as JSON.parse reads it.
    expect(jsonChildTexts(text, [])).toEqual(new Map<string | number, string>([['a', '[ 2 ]'], ['list', '[ 1 , {"k": [ ] } ,"s\\"]" ]']]));
    expect(jsonChildTexts(text, ['list'])).toEqual(new Map<string | number, string>([[0, '1'], [1, '{"k": [ ] }'], [2, '"s\\"]"']]));
    expect(jsonChildTexts(text, ['list', 0])).toBeNull();
    expect(jsonChildTexts(text, ['missing'])).toBeNull();
    expect(jsonChildTexts('{"a": [1, 2', ['a'])).toBeNull();
    expect(jsonValueText(text, ['list', 1, 'k'])).toBe('[ ]');
  });
});

describe('history receipts', () => {
  it('hash each reference exactly as the history answer spelled it, for every entry', () => {
    const paper = (i: number) => ({ '@bohrium-type': 'x/paper', title: `Paper ${i}`, authors: ['A B'] });
    const cards = (ids: number[]) => ({ channel: { answerId: 'a1', messageId: `m${ids[0]}`, uiInfo: { layout: 'main', subType: '@bohrium-chat/snp/cards-data', content: { data: { resourceMap: Object.fromEntries(ids.map((i) => [`r${i}`, paper(i)])) } } } } });
    // Pretty-printed: the received bytes differ from a re-serialisation.
    const raw = JSON.stringify({ code: 0, data: { historyData: [cards([1, 2]), { answerId: 'a1', messageId: 'm9', layout: 'main', content: { text: 'done', status: 1 } }, cards([3])] } }, null, 2);
    const receipts = new Map<string, Receipt>();
    mergeHistory(raw, new Snp2Merger(), receipts);
    expect([...receipts.keys()].sort()).toEqual(['r1', 'r2', 'r3']);
    for (const [i, entry] of [[1, 0], [2, 0], [3, 2]] as const) {
      const exact = jsonValueText(raw, ['data', 'historyData', entry, 'channel', 'uiInfo', 'content', 'data', 'resourceMap', `r${i}`])!;
      expect(exact).toContain('\n');
      expect(receipts.get(`r${i}`)).toEqual({ sha256: sha(exact), byteLength: Buffer.byteLength(exact), source: 'history' });
    }
  });
});
