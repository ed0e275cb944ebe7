import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { QueryLimits } from '../limits/query-limits.js';
import { subscriptionRootConditionErrors } from '../limits/subscription-root.js';
import { refuseGraphql } from './graphql-refusal.js';
import { GRAPHQL_PATH } from './graphql-ws-endpoint.js';

/**
 * Requests to /graphql that Apollo would answer with an internal error (HTTP 500), refused before
 * it sees them, as a GraphQL answer with a code, as its own refusals are.
 */
export function refuseWhatApolloCannotAnswer(fastify: FastifyInstance, queries: QueryLimits): void {
  // Apollo's Fastify integration builds the request's URL from its Host header: without one, or
  // with one that is no host name, that throws. HTTP/1.0 may leave it out; any client of this API sends it.
  fastify.addHook('onRequest', async (request, reply) => {
    if (!isGraphqlPath(request)) return;
    if (!urlBuilds(request)) return refuseGraphql(request, reply, 400, 'the Host header is missing or is not a host name', { code: 'BAD_REQUEST' });
  });
  // Apollo runs graphql-js's validation, whose single-root-field rule throws on a subscription
  // conditioned by a variable at its root (subscription-root.ts): found first, and refused as the
  // validation error it is. Only a document that could hold one is parsed for it.
  fastify.addHook('preHandler', async (request, reply) => {
    if (!isGraphqlPath(request)) return;
    const query = queryOf(request);
    if (query === null || !query.includes('subscription') || !query.includes('@')) return;
    if (!query.includes('skip') && !query.includes('include')) return;
    let errors;
    try {
      errors = subscriptionRootConditionErrors(queries.parse(query));
    } catch {
      return; // not a document: Apollo says why
    }
    if (errors.length > 0) return refuseGraphql(request, reply, 400, errors[0].message, { code: 'GRAPHQL_VALIDATION_FAILED' });
  });
}

/** The route matched, not the raw URL: the router decodes the path, so `/gr%61phql` is /graphql too. */
function isGraphqlPath(request: FastifyRequest): boolean {
  return request.routeOptions.url === GRAPHQL_PATH;
}

/** The URL as the integration builds it (fastify-request-to-graphql-request.js) can be built. */
function urlBuilds(request: FastifyRequest): boolean {
  try {
    new URL(request.url, `${request.protocol}://${request.hostname}/`);
    return true;
  } catch {
    return false;
  }
}

/** The query of a POST's JSON body or a GET's query string, when there is one. */
function queryOf(request: FastifyRequest): string | null {
  const source = request.method === 'GET' ? request.query : request.body;
  const query = source && typeof source === 'object' && !Array.isArray(source) ? (source as { query?: unknown }).query : undefined;
  return typeof query === 'string' ? query : null;
}
