import { GraphQLError, GraphQLScalarType, Kind, print } from 'graphql';

const EXPECTED = 'DateTime must be a string such as 2026-12-01T10:00:00Z';

/**
 * `DateTime`, as @nestjs/graphql's own (same name, same description, same output) but refusing
 * what is not a string: its scalar read a literal of any other kind (`from: -1`, `from: {}`) as no
 * value at all, so the argument was silently dropped and a filter matched everything, and took a
 * variable of any kind to `new Date` (`true` was a millisecond after 1970). A string is read as
 * before; one that is no date is refused where it is used (`dateInRange`).
 */
export const DateTimeScalar = new GraphQLScalarType<Date | null, string | null>({
  name: 'DateTime',
  description: 'A date-time string at UTC, such as 2019-12-03T09:54:33Z, compliant with the date-time format.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : null),
  parseValue: (value) => {
    if (typeof value !== 'string') throw new GraphQLError(EXPECTED);
    return new Date(value);
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError(`${EXPECTED}, not ${print(ast)}`);
    return new Date(ast.value);
  },
});
