import type { GraphQLFormattedError } from 'graphql';
import type { QueryLimits } from '../limits/query-limits.js';
import { API_ERROR_CODES } from '../common/api-error.js';

/**
 * Codes Apollo itself raises for a malformed request: the client's mistake, shown as is
 * (catalogued in docs/errors.md with the API's own codes).
 */
export const GRAPHQL_REQUEST_ERROR_CODES = [
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
] as const;

/** What every unexpected failure is answered with, details withheld. */
export const INTERNAL_ERROR_CODE = 'INTERNAL_SERVER_ERROR';

const REQUEST_ERROR_CODES = new Set<string>([...API_ERROR_CODES, ...GRAPHQL_REQUEST_ERROR_CODES]);

/**
 * Apollo's last word on every error: known codes pass through; anything else is a bug, so it is
 * logged with its stack and the client sees only a generic message. `count` sees every code answered.
 */
export function formatError(log: (err: unknown) => void, limits: QueryLimits, count: (code: string) => void = () => {}) {
  return (raw: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const formatted = limits.formatted(raw);
    const code = formatted.extensions?.code;
    if (typeof code === 'string' && REQUEST_ERROR_CODES.has(code)) {
      count(code);
      const { stacktrace: _stack, http: _http, ...extensions } = formatted.extensions ?? {};
      return { ...formatted, extensions };
    }
    if ((code === undefined || code === INTERNAL_ERROR_CODE) && isClientStatus(error)) {
      // Apollo refuses a few malformed requests with a 4xx status and no code of their own ("provided
      // sha does not match query", an unsupported persisted-query version), which it fills in as
      // INTERNAL_SERVER_ERROR: the client's mistake, not a bug.
      count('BAD_REQUEST');
      return { message: formatted.message, extensions: { code: 'BAD_REQUEST' } };
    }
    count(INTERNAL_ERROR_CODE);
    log(error);
    return { message: 'Internal server error', path: formatted.path, extensions: { code: INTERNAL_ERROR_CODE } };
  };
}

/** An error raised with an HTTP 4xx status (Apollo's request errors carry it in extensions.http). */
function isClientStatus(error: unknown): boolean {
  const status = (error as { extensions?: { http?: { status?: unknown } } } | null)?.extensions?.http?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
