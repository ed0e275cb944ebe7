import { Catch, type ArgumentsHost } from '@nestjs/common';
import { GqlArgumentsHost, type GqlExceptionFilter } from '@nestjs/graphql';
import { GraphQLError } from 'graphql';
import type { RequestContext } from '../players/auth.js';
import { ApiError, httpStatusOf } from '../common/api-error.js';

function contextOf(host: ArgumentsHost): RequestContext | undefined {
  return GqlArgumentsHost.create(host).getContext<RequestContext | undefined>();
}

/** HTTP 429 with Retry-After for a GraphQL request over HTTP refused by a rate limit. */
export function rateLimitedHttp(error: ApiError): { status: number; headers: Map<string, string> } {
  return { status: httpStatusOf(error.code), headers: new Map([['retry-after', String(Number(error.details?.retryAfter ?? 1))]]) };
}

/** A REST error answer: JSON `{ code, message, … }` that no cache may keep (it is about this moment: a match not finished yet). */
export function sendRestError(host: ArgumentsHost, status: number, body: { code: string; message: string }): undefined {
  // Express's res and Fastify's reply both answer status().send() with JSON for an object.
  const res = host
    .switchToHttp()
    .getResponse<{ header(name: string, value: string): unknown; status(code: number): { send(body: unknown): unknown } }>();
  res.header('Cache-Control', 'no-store');
  res.status(status).send(body);
  return undefined;
}

/** An ApiError as a REST answer: its HTTP status, `{ code, message, …details }`. */
export function sendApiError(host: ArgumentsHost, error: ApiError): undefined {
  return sendRestError(host, httpStatusOf(error.code), { code: error.code, message: error.message, ...error.details });
}

/** Turns an ApiError into a GraphQL error with `extensions.code`, or a JSON error for REST. */
@Catch(ApiError)
export class ApiErrorFilter implements GqlExceptionFilter {
  catch(error: ApiError, host: ArgumentsHost): unknown {
    if (host.getType() === 'http') return sendApiError(host, error);
    // On HTTP, Apollo sends the Retry-After header and strips `http` from the error (the status
    // stays 200, as Nest keeps it for every execution error: the body is a normal GraphQL answer).
    const http = error.code === 'RATE_LIMITED' && contextOf(host)?.transport === 'http' ? { http: rateLimitedHttp(error) } : {};
    return new GraphQLError(error.message, { extensions: { code: error.code, ...error.details, ...http } });
  }
}

/**
 * A GraphQLError a resolver throws is a refusal with its code already (a limit: GRAPHQL_MAX_ROUNDS,
 * in a query or in each event of a subscription): the answer as it is. Nest would otherwise log
 * it as a server failure, with its stack, once per field refused: any client could fill the log.
 */
@Catch(GraphQLError)
export class GraphQLErrorFilter implements GqlExceptionFilter {
  catch(error: GraphQLError, host: ArgumentsHost): GraphQLError {
    if (host.getType() === 'http') throw error; // not a GraphQL operation: not ours to answer
    return error;
  }
}
