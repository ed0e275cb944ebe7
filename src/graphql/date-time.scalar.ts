import { GraphQLError, GraphQLScalarType, Kind, print } from 'graphql';

const EXPECTED =
  'DateTime must be an ISO 8601 date-time with its offset, such as 2026-12-01T10:00:00Z or 2026-12-01T11:00+01:00, or a date such as 2026-12-01 (midnight UTC)';

/**
 * ISO 8601 as clients' serializers write it: a date alone, or a date and a time (seconds and
 * fraction optional) with its offset (Z, ±hh:mm or ±hhmm).
 */
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(?:[Zz]|([+-])(\d{2}):?(\d{2})))?$/;

/**
 * A date-time string, or null. A time needs its offset: without one, JavaScript reads it as the
 * server's local time, so a client's "10:00" meant whatever the server's zone made of it. A date
 * alone is midnight UTC (as JavaScript reads it too). A date that is no date (February 30th, hour
 * 24) is refused, not rolled over.
 */
export function parseDateTime(text: string): Date | null {
  const m = ISO_8601.exec(text);
  if (!m) return null;
  const [year, month, day] = m.slice(1, 4).map(Number);
  const calendar = new Date(0);
  calendar.setUTCFullYear(year, month - 1, day); // Date.UTC would read years 0–99 as 1900–1999
  if (calendar.getUTCFullYear() !== year || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return null;
  if (m[4] === undefined) return calendar;
  const [hour, minute, second] = [m[4], m[5], m[6] ?? '0'].map(Number);
  if (hour > 23 || minute > 59 || second > 59) return null;
  const fraction = Number(`0${m[7] ?? ''}`);
  const offsetMinutes = m[8] ? (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10])) : 0;
  if (m[8] && (Number(m[9]) > 23 || Number(m[10]) > 59)) return null;
  const utc = calendar.getTime() + ((hour * 60 + minute - offsetMinutes) * 60 + second) * 1000 + Math.floor(fraction * 1000);
  return new Date(utc);
}

/**
 * `DateTime`, as @nestjs/graphql's own (same name, same description, same output) but refusing
 * what is no ISO 8601 date-time (parseDateTime): its scalar read a literal of any other kind (`from: -1`,
 * `from: {}`) as no value at all, so the argument was silently dropped and a filter matched
 * everything, took a variable of any kind to `new Date` (`true` was a millisecond after 1970),
 * and read a string without an offset in the server's time zone. The dates the database can hold
 * are checked where they are used (`dateInRange`).
 */
export const DateTimeScalar = new GraphQLScalarType<Date | null, string | null>({
  name: 'DateTime',
  description: 'A date-time string at UTC, such as 2019-12-03T09:54:33Z, compliant with the date-time format.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : null),
  parseValue: (value) => {
    const date = typeof value === 'string' ? parseDateTime(value) : null;
    if (!date) throw new GraphQLError(EXPECTED);
    return date;
  },
  parseLiteral: (ast) => {
    const date = ast.kind === Kind.STRING ? parseDateTime(ast.value) : null;
    if (!date) throw new GraphQLError(`${EXPECTED}, not ${print(ast)}`);
    return date;
  },
});
