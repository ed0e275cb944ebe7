import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Fastify refuses some request bodies before GraphQL sees them (its `FST_ERR_CTP_*` errors):
 * malformed or empty JSON, a body over the limit (HTTP 413), a content type it does not parse
 * (HTTP 415). On /graphql such a refusal is answered as the endpoint's other refusals are, a
 * GraphQL answer with `errors[0].extensions.code` BAD_REQUEST, keeping its HTTP status, so a
 * client reads every error of the endpoint one way. Elsewhere the answer is left as it is.
 */
export function answerBodyRefusalsAsGraphql(fastify: FastifyInstance): void {
  const refused = new WeakMap<FastifyRequest, string>();
  fastify.addHook('onError', async (request, _reply, error) => {
    if (typeof error.code === 'string' && error.code.startsWith('FST_ERR_CTP_') && request.url.split('?')[0] === '/graphql')
      refused.set(request, error.message);
  });
  fastify.addHook('onSend', async (request, reply, payload) => {
    const message = refused.get(request);
    if (message === undefined) return payload;
    reply.header('content-type', 'application/json; charset=utf-8');
    return JSON.stringify({ errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] });
  });
}
