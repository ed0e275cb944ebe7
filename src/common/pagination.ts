import { Field, ObjectType } from '@nestjs/graphql';
import { ApiError } from './api-error.js';
import { UUID } from './ids.js';
import { dateInRange } from './validate.js';

@ObjectType({ description: 'Relay page information.' })
export class PageInfo {
  @Field({ description: 'More items follow this page.' })
  hasNextPage!: boolean;
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page; null on an empty page.' })
  endCursor!: string | null;
}

export const DEFAULT_PAGE = 20;
export const MAX_PAGE = 100;

export function pageSize(first: number | null | undefined): number {
  if (first === null || first === undefined) return DEFAULT_PAGE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE) throw new ApiError('BAD_USER_INPUT', `first must be 1 to ${MAX_PAGE}`);
  return first;
}

/**
 * Opaque keyset cursor over (createdAt, id): stable under concurrent inserts, since a new row
 * sorts before every cursor already handed out (newest first).
 */
export function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(`${createdAt.toISOString()}|${id}`).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [iso, id, ...rest] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(iso ?? '');
  if (!id || rest.length > 0 || !UUID.test(id) || Number.isNaN(createdAt.getTime())) throw notACursor();
  return { createdAt: dateInRange(createdAt, 'after'), id };
}

export function notACursor(): ApiError {
  return new ApiError('BAD_USER_INPUT', 'after is not a cursor this API gave');
}
