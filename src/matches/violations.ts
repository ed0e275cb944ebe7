import { ApiError, type ApiErrorCode } from '../common/api-error.js';
import type { Violation, ViolationCode } from '../domain/index.js';

/**
 * Every engine refusal has exactly one contract code; the switch is exhaustive by type. One code
 * per kind of mistake: MUST_PLAY is "a particular play is owed" (R14 any playable tile, R15 the
 * drawn tile, R6 the highest double), ILLEGAL_MOVE is "that play does not fit this layout",
 * BAD_USER_INPUT is "the request does not name one move".
 */
export function codeOf(code: ViolationCode): ApiErrorCode {
  switch (code) {
    case 'NOT_YOUR_TURN':
      return 'NOT_YOUR_TURN';
    case 'INVALID_TILE':
    case 'END_REQUIRED':
      return 'BAD_USER_INPUT';
    case 'NO_SUCH_END':
    case 'TILE_NOT_HELD':
    case 'TILE_DOES_NOT_MATCH':
      return 'ILLEGAL_MOVE';
    case 'MUST_PLAY':
    case 'MUST_PLAY_DRAWN_TILE':
    case 'MUST_LEAD_HIGHEST_DOUBLE':
      return 'MUST_PLAY';
    case 'BONEYARD_EMPTY':
      return 'BONEYARD_EMPTY';
    case 'ROUND_OVER':
    case 'MATCH_OVER':
      return 'MATCH_NOT_IN_PROGRESS';
  }
}

export function violationError(v: Violation): ApiError {
  return new ApiError(codeOf(v.code), v.message, { reason: v.code, rule: v.rule });
}
