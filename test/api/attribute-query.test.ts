import { formatAttributeQuery, parseAttributeQuery } from '../../src/api/attribute-query';

describe('parseAttributeQuery', () => {
  it('reads whitespace-separated key:value pairs, quoted or not, and empty values', () => {
    expect(parseAttributeQuery('tier:gold\t"cost center":"north east" path:c:\\tmp empty:')).toEqual([
      ['tier', 'gold'],
      ['cost center', 'north east'],
      ['path', 'c:\\tmp'],
      ['empty', ''],
    ]);
  });

  it('reads an empty or blank q as no matches', () => {
    expect(parseAttributeQuery('')).toEqual([]);
    expect(parseAttributeQuery('   ')).toEqual([]);
  });

  it.each(['novalue', ':x', '"":x', 'a:"open', '"open:x', 'a:b"c"', 'a:"b"c'])('finds no list of pairs in %j', (q) => {
    expect(parseAttributeQuery(q)).toBeUndefined();
  });
});

describe('formatAttributeQuery and parseAttributeQuery', () => {
  /** Terms with every character class the grammar treats specially, except the double quote. */
  const TERMS = ['gold', 'north east', 'a:b', 'c:\\tmp', 'tab\there', ' lead', 'trail ', 'ünïcödé', '-', 'x:y z', "it's"];

  it('give back what was formatted, for every pair of awkward keys and values', () => {
    for (const key of TERMS) {
      for (const value of TERMS) {
        const matches = { [key]: value, region: 'eu' };
        const q = formatAttributeQuery(matches);
        expect(parseAttributeQuery(q)).toEqual(Object.entries(matches));
      }
    }
  });

  it('format a parsed q into the same pairs', () => {
    const q = 'tier:gold "cost center":"north east" "a:b":x';
    const pairs = parseAttributeQuery(q)!;
    expect(parseAttributeQuery(formatAttributeQuery(Object.fromEntries(pairs)))).toEqual(pairs);
  });
});
