import type { FastifyInstance } from 'fastify';
import { RateLimitedError, type RateLimits } from './rate-limits.service.js';
import { clientKey } from './client-key.js';
import { isGraphqlPath, refuseGraphql } from '../graphql/graphql-refusal.js';

/**
 * Every HTTP request but the health checks spends from its address's budget before any parsing:
 * a refusal is a plain HTTP 429 with `Retry-After`, its body shaped like the endpoint's own errors
 * (GraphQL `errors[]` on /graphql, `{ code, message }` on REST).
 */
export function limitHttpByAddress(fastify: FastifyInstance, limits: RateLimits): void {
  fastify.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/health')) return;
    try {
      await limits.consume('httpAddress', clientKey(request.ip));
    } catch (e) {
      if (!(e instanceof RateLimitedError)) throw e;
      const { code, message, retryAfter } = e;
      reply.header('retry-after', String(retryAfter));
      if (isGraphqlPath(request.url)) return refuseGraphql(request, reply, 429, message, { code, retryAfter });
      return reply.code(429).send({ code, message, retryAfter });
    }
  });
}
