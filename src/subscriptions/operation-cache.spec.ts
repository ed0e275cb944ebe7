import { buildSchema, GraphQLError } from 'graphql';
import { cachedOperations } from './operation-cache.js';

const schema = buildSchema('type Query { a: Int } type Subscription { ticks: Int }');

describe('cachedOperations (graphql-ws parse and validate)', () => {
  it('parses a text once and validates a document once, with the same answers as graphql-js', () => {
    const ops = cachedOperations();
    const doc = ops.parse('subscription { ticks }');
    expect(ops.parse('subscription { ticks }')).toBe(doc);
    const ok = ops.validate(schema, doc);
    expect(ok).toEqual([]);
    expect(ops.validate(schema, doc)).toBe(ok);
    const bad = ops.parse('subscription { nope }');
    expect(ops.validate(schema, bad).map((e) => e.message)).toEqual(['Cannot query field "nope" on type "Subscription".']);
  });

  it('lets a syntax error through as graphql-js throws it, and remembers nothing for it', () => {
    const ops = cachedOperations();
    expect(() => ops.parse('subscription {')).toThrow(GraphQLError);
    expect(() => ops.parse('subscription {')).toThrow(GraphQLError);
  });
});
