import type { FastifyInstance, FastifyRequest } from 'fastify';
import { graphqlErrorBody, graphqlMediaType } from './graphql-refusal.js';

/**
 * Fastify refuses some request bodies before GraphQL sees them (its `FST_ERR_CTP_*` errors):
 * malformed or empty JSON, a body over the limit (HTTP 413), a content type it does not parse
 * (HTTP 415). On /graphql such a refusal is answered as the endpoint's other refusals are, a
 * GraphQL answer with `errors[0].extensions.code` BAD_REQUEST, keeping its HTTP status, so a
 * client reads every error of the endpoint one way. Elsewhere the answer is left as it is.
 */
/**
 * Fastify's parser refuses a `__proto__` key (and `constructor.prototype`) as it refuses broken
 * JSON, with the same words ("Body is not valid JSON"): a client sending such a key was told its
 * valid JSON was not. Both causes are named.
 */
const INVALID_JSON = 'Body is not valid JSON, or holds a "__proto__" or "constructor": "prototype" key (refused as prototype poisoning)';

export function answerBodyRefusalsAsGraphql(fastify: FastifyInstance): void {
  const refused = new WeakMap<FastifyRequest, string>();
  fastify.addHook('onError', async (request, _reply, error) => {
    if (typeof error.code === 'string' && error.code.startsWith('FST_ERR_CTP_') && request.routeOptions.url === '/graphql')
      refused.set(request, error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? INVALID_JSON : error.message);
  });
  fastify.addHook('onSend', async (request, reply, payload) => {
    const message = refused.get(request);
    if (message === undefined) return payload;
    reply.header('content-type', graphqlMediaType(request.headers.accept));
    return graphqlErrorBody(message, { code: 'BAD_REQUEST' });
  });
}
