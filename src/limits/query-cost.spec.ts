import { buildSchema, parse } from 'graphql';
import { queryCostError } from './query-cost.js';

const schema = buildSchema(`
  type Item { id: ID! name: String }
  type Page { edges: [Item!]! totalCount: Int! }
  type Query { item(id: ID!): Item  items(first: Int): Page  leaderboard(first: Int): Page }
`);

const code = (e: ReturnType<typeof queryCostError>) => e?.extensions.code ?? null;

describe('queryCostError', () => {
  it('costs a document whose cost ignores its variables once, and still checks the variables of every request', () => {
    const doc = parse('query($id: ID!) { item(id: $id) { id name } }');
    expect(queryCostError(schema, doc, { id: '1' }, undefined, 100)).toBeNull();
    // Remembered: the same answer, and a limit below the cost still refuses it.
    expect(queryCostError(schema, doc, { id: '2' }, undefined, 100)).toBeNull();
    expect(queryCostError(schema, doc, { id: '2' }, undefined, 2)?.extensions).toMatchObject({ limit: 'GRAPHQL_MAX_COST', cost: 3 });
    // Bad variables are refused on the remembered path as on the first costing.
    const fresh = parse('query($id: ID!) { item(id: $id) { id name } }');
    const first = queryCostError(schema, fresh, {}, undefined, 100);
    const remembered = queryCostError(schema, doc, {}, undefined, 100);
    expect(code(first)).toBe('BAD_USER_INPUT');
    expect(remembered?.message).toBe(first?.message);
    expect(code(remembered)).toBe('BAD_USER_INPUT');
  });

  it('costs again whenever a variable sets a page size', () => {
    const doc = parse('query($n: Int) { items(first: $n) { edges { id } } }');
    expect(queryCostError(schema, doc, { n: 5 }, undefined, 1_000)).toBeNull();
    expect(queryCostError(schema, doc, { n: 90 }, undefined, 100)?.extensions).toMatchObject({ limit: 'GRAPHQL_MAX_COST' });
    expect(queryCostError(schema, doc, { n: 0 }, undefined, 1_000)?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'first' });
    expect(queryCostError(schema, doc, { n: 5 }, undefined, 1_000)).toBeNull();
  });

  it('costs again whenever a variable decides what is selected', () => {
    const doc = parse('query($big: Boolean!) { items(first: 50) @include(if: $big) { edges { id name } } item(id: "1") { id } }');
    expect(queryCostError(schema, doc, { big: false }, undefined, 20)).toBeNull();
    expect(queryCostError(schema, doc, { big: true }, undefined, 20)?.extensions).toMatchObject({ limit: 'GRAPHQL_MAX_COST' });
  });

  it('keeps one costing per operation of a document', () => {
    const doc = parse('query Small { item(id: "1") { id } } query Big { items(first: 50) { edges { id name } } }');
    expect(queryCostError(schema, doc, {}, 'Small', 20)).toBeNull();
    expect(queryCostError(schema, doc, {}, 'Big', 20)?.extensions).toMatchObject({ limit: 'GRAPHQL_MAX_COST' });
    expect(queryCostError(schema, doc, {}, 'Small', 20)).toBeNull();
  });

  it('counts the totalCount fields an operation selects, aliases and fragments included, against its own limit', () => {
    const doc = parse('{ a: items(first: 1) { totalCount } b: items { ...P } c: items { ...P } } fragment P on Page { totalCount }');
    expect(queryCostError(schema, doc, {}, undefined, 1_000, 3)).toBeNull();
    expect(queryCostError(schema, doc, {}, undefined, 1_000, 2)?.extensions).toMatchObject({ limit: 'GRAPHQL_MAX_COUNTS', max: 2, counts: 3 });
  });

  it('counts a totalCount under @skip (the resolver still counts), and a leaderboard once, whether it asks for totalCount or not', () => {
    const counts = (q: string) => queryCostError(schema, parse(q), {}, undefined, 1_000, 0)?.extensions.counts ?? 0;
    expect(counts('{ a: items { totalCount @skip(if: true) } b: items { totalCount @include(if: false) } }')).toBe(2);
    expect(counts('{ a: leaderboard { edges { id } } b: leaderboard { totalCount } c: items { edges { id } } }')).toBe(2);
  });

  it('walks each fragment once, however often it is spread: a doubling chain under @skip is counted, not expanded', () => {
    // F0 spreads F1 twice, F1 spreads F2 twice, …: 2^60 paths, which expanding would never finish.
    const chain = Array.from({ length: 60 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(' ');
    const leaf = (inner: string) => `fragment F60 on Query { ${inner} }`;
    const skipped = (inner: string) => parse(`query { ...F0 @skip(if: true) __typename } ${chain} ${leaf(inner)}`);
    expect(queryCostError(schema, skipped('__typename'), {}, undefined, 1_000, 3)).toBeNull();
    expect(queryCostError(schema, skipped('items { totalCount }'), {}, undefined, 1_000, 3)?.extensions).toMatchObject({
      limit: 'GRAPHQL_MAX_COUNTS',
      counts: 2 ** 60,
    });
    // Under a leaderboard a fragment's own totalCount is the leaderboard's: the same fragment counts differently there.
    const both = parse('{ leaderboard { ...T } items { ...T } } fragment T on Page { totalCount }');
    expect(queryCostError(schema, both, {}, undefined, 1_000, 0)?.extensions.counts).toBe(2);
  });
});
