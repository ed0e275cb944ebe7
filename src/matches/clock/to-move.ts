import { ApiError } from '../../common/api-error.js';
import { UUID } from '../../common/ids.js';
import type { ToMoveKey } from './clock.repository.js';

/*
 * The to-move list's cursor: opaque, the (deadline, id) of the last match of a page. Keyset
 * paging stays right while matches leave the list (moved) or join it (a turn handed over).
 */

export function encodeToMoveCursor(key: ToMoveKey): string {
  return Buffer.from(`${key.deadline ? key.deadline.toISOString() : '-'}|${key.id}`).toString('base64url');
}

export function decodeToMoveCursor(cursor: string): ToMoveKey {
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString().split('|');
  const deadline = at === '-' ? null : new Date(at ?? '');
  if (!id || rest.length > 0 || !UUID.test(id) || (deadline !== null && Number.isNaN(deadline.getTime()))) {
    throw new ApiError('BAD_USER_INPUT', 'after is not a cursor this API gave');
  }
  return { deadline, id };
}
