import { UUID } from '../../common/ids.js';
import { notACursor } from '../../common/pagination.js';
import { dateInRange } from '../../common/validate.js';
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
  if (!id || rest.length > 0 || !UUID.test(id) || (deadline !== null && Number.isNaN(deadline.getTime()))) throw notACursor();
  // A date PostgreSQL cannot hold (year 0, beyond 275760) is refused here, not by the database.
  return { deadline: deadline === null ? null : dateInRange(deadline, 'after'), id };
}
