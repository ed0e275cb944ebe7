import { ApiError } from './api-error.js';

/**
 * Checks for the values a client chooses freely (names, keys, dates, integers), in one place so
 * that every resolver refuses the same mistakes the same way: BAD_USER_INPUT, before any query.
 * (Ids and cursors: ids.ts and pagination.ts, which use these too.)
 */

export const MAX_NAME = 40;
export const MAX_CLIENT_MOVE_ID = 100;
export const INT32_MAX = 2 ** 31 - 1;

/**
 * Code points no human-readable text needs: controls (NUL included, which PostgreSQL cannot
 * store), lone surrogates, private use, line and paragraph separators (a name is one line), and
 * invisible characters that let one name pass for another: format characters (bidirectional
 * overrides, zero-width spaces, BOM) and the rest of Unicode's default-ignorables, which draw
 * nothing though some are filed as letters (the Hangul fillers). ZWNJ, ZWJ and the variation
 * selectors stay: some scripts and emoji sequences need them.
 */
const FORBIDDEN = /[\p{Cc}\p{Cs}\p{Co}\p{Zl}\p{Zp}]|(?!\u200c|\u200d|\p{Variation_Selector})[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

/**
 * A character a reader sees: a letter, digit, punctuation or symbol, except the blank braille
 * pattern (a symbol that draws nothing). Marks, joiners and selectors only change the one before.
 */
const VISIBLE = /(?!\u2800)[\p{L}\p{N}\p{P}\p{S}]/u;

/**
 * An emoji tag sequence (the flags of England, Scotland, Wales): a black flag, tag characters, a
 * cancel tag. Its tags are format characters, allowed only there.
 */
const TAG_SEQUENCE = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;

function text(value: string, field: string, max: number): string {
  const length = [...value].length;
  if (length === 0 || length > max) throw new ApiError('BAD_USER_INPUT', `${field} must be 1 to ${max} characters`);
  if (FORBIDDEN.test(value.replace(TAG_SEQUENCE, '\u{1F3F4}')))
    throw new ApiError('BAD_USER_INPUT', `${field} must not contain control or invisible characters`);
  return value;
}

/**
 * Longest name looked at, in UTF-16 units, before normalising: NFC reorders runs of combining marks
 * in time that grows with the square of the run (a 160 KB name of marks took 2 s), and no name of
 * 40 characters comes near this even decomposed.
 */
const MAX_NAME_UNITS = 1_000;

/**
 * A display name: NFC, trimmed, then 1–40 characters (code points), no control or invisible
 * characters, and at least one a reader sees (a name of spaces and marks shows as a blank). Not unique.
 */
export function playerName(raw: string): string {
  if (raw.length > MAX_NAME_UNITS) throw new ApiError('BAD_USER_INPUT', `name must be 1 to ${MAX_NAME} characters`);
  const name = text(raw.normalize('NFC').trim(), 'name', MAX_NAME);
  if (!VISIBLE.test(name)) throw new ApiError('BAD_USER_INPUT', 'name must show at least one letter, digit, punctuation mark or symbol');
  return name;
}

/** An idempotency key, compared as sent: 1–100 characters, no control or invisible characters. */
export function clientMoveId(raw: string | null | undefined): string | null {
  return raw === null || raw === undefined ? null : text(raw, 'clientMoveId', MAX_CLIENT_MOVE_ID);
}

/** Dates the database can store and a person can mean: 1970-01-01 to 9999-12-31 UTC. */
const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export function dateInRange(value: Date, field: string): Date {
  const t = value.getTime();
  if (!Number.isFinite(t) || t < EARLIEST || t > LATEST) throw new ApiError('BAD_USER_INPUT', `${field} must be between 1970-01-01 and 9999-12-31`);
  return value;
}

/** An integer within [min, max] (inclusive); anything else is the client's mistake. */
export function intInRange(value: number, field: string, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new ApiError('BAD_USER_INPUT', `${field} must be an integer from ${min} to ${max}`);
  return value;
}
