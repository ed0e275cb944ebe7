import { GraphQLError } from 'graphql';
import { QueryLimits } from './query-limits.js';

const limits = (suggestions: boolean) =>
  new QueryLimits({
    maxDepth: 12,
    maxAliases: 30,
    maxTokens: 2_000,
    maxCost: 150_000,
    maxCounts: 3,
    maxRounds: 2_000,
    introspection: false,
    suggestions,
  });

describe('QueryLimits.withoutSuggestions', () => {
  it("cuts graphql-js's trailing suggestion when suggestions are off, and nothing else", () => {
    const typo = new GraphQLError('Cannot query field "matchs" on type "Query". Did you mean "matches" or "match"?');
    expect(limits(false).withoutSuggestions(typo).message).toBe('Cannot query field "matchs" on type "Query".');
    expect(limits(true).withoutSuggestions(typo).message).toBe(typo.message);
    const plain = { message: 'match id "x" is not a UUID' };
    expect(limits(false).withoutSuggestions(plain)).toBe(plain);
  });

  it('leaves client text that repeats the phrase alone (a pattern scanning for it went quadratic there)', () => {
    // Thousands of "Did you mean" in an id, quoted in its error: a scanning pattern went quadratic on it.
    const id = 'Did you mean '.repeat(100_000);
    const echoed = { message: `match id "${id}" is not a UUID` };
    expect(limits(false).withoutSuggestions(echoed).message).toBe(echoed.message);
    const withSuggestion = { message: `Variable "$x" got invalid value "${id}"; Did you mean "TURN"?` };
    expect(limits(false).withoutSuggestions(withSuggestion).message).toBe(`Variable "$x" got invalid value "${id}";`);
  });
});
