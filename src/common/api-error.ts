/**
 * The error codes of the client contract (design.md). Every failure a client can cause carries
 * one of them in `extensions.code`; anything else is a bug, logged and masked.
 */
export const API_ERROR_CODES = [
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'BAD_USER_INPUT',
  'NOT_YOUR_TURN',
  'ILLEGAL_MOVE',
  'MUST_PLAY',
  'BONEYARD_EMPTY',
  'STALE_VERSION',
  'MATCH_NOT_IN_PROGRESS',
  'MATCH_FULL',
  // Limits and abuse (README): extensions.retryAfter (seconds) / extensions.limit.
  'RATE_LIMITED',
  'TOO_MANY_WAITING_MATCHES',
  // Rematches (docs/matchmaking.md)
  'MATCH_NOT_FINISHED',
  'TOO_MANY_WEBHOOKS',
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The HTTP status a REST endpoint answers for each code. */
export function httpStatusOf(code: ApiErrorCode): number {
  switch (code) {
    case 'UNAUTHENTICATED':
      return 401;
    case 'FORBIDDEN':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'BAD_USER_INPUT':
      return 400;
    case 'NOT_YOUR_TURN':
    case 'ILLEGAL_MOVE':
    case 'MUST_PLAY':
    case 'BONEYARD_EMPTY':
    case 'STALE_VERSION':
    case 'MATCH_NOT_IN_PROGRESS':
    case 'MATCH_FULL':
    case 'TOO_MANY_WAITING_MATCHES':
    case 'MATCH_NOT_FINISHED':
    case 'TOO_MANY_WEBHOOKS':
      return 409;
    case 'RATE_LIMITED':
      return 429;
  }
}
