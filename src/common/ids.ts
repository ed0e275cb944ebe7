import { ApiError } from './api-error.js';

/** Ids are UUIDs; anything else is refused before it reaches a query (BAD_USER_INPUT, not a 500). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The id as this server spells it (lower case), or BAD_USER_INPUT if it is no UUID. A UUID reads
 * the same in capitals, and PostgreSQL agrees, but the caches, the live feeds and the per-match
 * command queues key on the string: `0F…` and `0f…` must be one match there too.
 */
export function canonicalId(id: string, what: 'match' | 'player' | 'webhook' | 'delivery'): string {
  if (!UUID.test(id)) throw new ApiError('BAD_USER_INPUT', `${quoted(id)} is not a ${what} id`);
  return id.toLowerCase();
}

/** Longest value an error message repeats whole: a refusal names what it refused, not echo a megabyte back. */
const QUOTED_MAX = 64;

/** A client's value in an error message: as JSON (controls escaped), its start only when long. */
export function quoted(value: string): string {
  const chars = [...value];
  if (chars.length <= QUOTED_MAX) return JSON.stringify(value);
  return `${JSON.stringify(chars.slice(0, QUOTED_MAX).join(''))}… (${chars.length} characters)`;
}
