import { ApiError } from './api-error.js';

/** Ids are UUIDs; anything else is refused before it reaches a query (BAD_USER_INPUT, not a 500). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function assertId(id: string, what: 'match' | 'player'): void {
  if (!UUID.test(id)) throw new ApiError('BAD_USER_INPUT', `"${id}" is not a ${what} id`);
}
