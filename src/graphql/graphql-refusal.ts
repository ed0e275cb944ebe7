import Negotiator from 'negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GRAPHQL_PATH } from './graphql-ws-endpoint.js';

const APPLICATION_JSON = 'application/json; charset=utf-8';
const GRAPHQL_RESPONSE_JSON = 'application/graphql-response+json; charset=utf-8';

/**
 * The media type of a refusal on /graphql answered before Apollo sees the request: the one Apollo
 * gives its own answers for the same Accept header (ApolloServer's
 * chooseContentTypeForSingleResultResponse), so a GraphQL-over-HTTP client that asks for
 * `application/graphql-response+json` reads every 4xx of the endpoint as a GraphQL response.
 * Apollo answers 406 to an Accept that allows neither; a refusal answers JSON instead, as it has
 * already something to say.
 */
export function graphqlMediaType(accept: string | undefined): string {
  if (!accept) return APPLICATION_JSON;
  const preferred = new Negotiator({ headers: { accept } }).mediaType([APPLICATION_JSON, GRAPHQL_RESPONSE_JSON]);
  return preferred ?? APPLICATION_JSON;
}

/** Whether a request's path is /graphql as the router reads it (`/gr%61phql` is), routed or not (`PUT /graphql` is not). */
export function isGraphqlPath(url: string): boolean {
  const path = url.split('?')[0];
  try {
    return decodeURIComponent(path) === GRAPHQL_PATH;
  } catch {
    return false;
  }
}

/** A GraphQL answer of one error with its code (and any further extensions, such as retryAfter). */
export function graphqlErrorBody(message: string, extensions: { code: string } & Record<string, unknown>): string {
  return JSON.stringify({ errors: [{ message, extensions }] });
}

/** Answers a refused /graphql request with one error, its status and the negotiated media type. */
export function refuseGraphql(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  message: string,
  extensions: { code: string } & Record<string, unknown>,
): FastifyReply {
  return reply.code(status).header('content-type', graphqlMediaType(request.headers.accept)).send(graphqlErrorBody(message, extensions));
}
