import { Catch, HttpException, HttpStatus, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { ApiError } from './api-error.js';
import { sendApiError, sendRestError } from '../graphql/api-error.filter.js';

/** The code a REST answer of Nest's own (a route's HttpException) carries, by its status. */
export function codeOfStatus(status: number): string {
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 429) return 'RATE_LIMITED';
  if (status >= 500) return 'INTERNAL_SERVER_ERROR';
  return 'BAD_REQUEST';
}

/**
 * Every error of the documented REST routes (the match record, the board picture) as the JSON
 * `{ code, message }` their docs promise, the unexpected ones included: Nest's own answer for
 * those is `{ statusCode, message }`. An unexpected error is logged and its text never sent.
 */
@Catch()
export class RestErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('REST');

  catch(error: unknown, host: ArgumentsHost): undefined {
    if (error instanceof ApiError) return sendApiError(host, error);
    if (error instanceof HttpException) {
      return sendRestError(host, error.getStatus(), { code: codeOfStatus(error.getStatus()), message: error.message });
    }
    this.logger.error(error);
    return sendRestError(host, HttpStatus.INTERNAL_SERVER_ERROR, { code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' });
  }
}
