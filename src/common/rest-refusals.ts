import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { refuseGraphql } from '../graphql/graphql-refusal.js';
import { codeOfStatus } from './rest-error.filter.js';

/** The documented REST routes (the match record, the board picture) live under this prefix. */
const REST_PREFIX = '/matches/';

/**
 * Refusals of a REST request that happen before its route runs, in the `{ code, message }` the
 * routes' docs promise: Fastify's (a path whose percent-encoding is broken, FST_ERR_BAD_URL; a
 * path parameter over its length limit, 414) and Nest's (no route for that method, 404), which
 * answer `{ statusCode, code: "FST_ERR_…", … }` or `{ statusCode, error, message }`. An answer
 * that already carries one of this API's codes is left as it is.
 */
export function answerRestRefusalsWithCodes(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string' || !decodedPath(request.url).startsWith(REST_PREFIX)) return payload;
    let body: { code?: unknown; message?: unknown; statusCode?: unknown };
    try {
      body = JSON.parse(payload) as typeof body;
    } catch {
      return payload;
    }
    if (typeof body.statusCode !== 'number' || (typeof body.code === 'string' && !body.code.startsWith('FST_ERR_'))) return payload;
    const message = typeof body.message === 'string' ? body.message : 'the request was refused';
    return JSON.stringify({ code: codeOfStatus(reply.statusCode), message });
  });
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any hook or route (a path whose
 * percent-encoding is broken) answered as every other refusal of the path is: a GraphQL answer
 * with BAD_REQUEST on /graphql, `{ code, message }` elsewhere, instead of Fastify's own shape.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode ?? 400;
  if (request.url.split('?')[0] === '/graphql') {
    void refuseGraphql(request, reply, status, error.message, { code: 'BAD_REQUEST' });
    return;
  }
  const body = { code: codeOfStatus(status), message: error.message };
  void reply.code(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
}

/** The path as the router reads it (`/m%61tches/…` is /matches/…); the raw one if it does not decode. */
function decodedPath(url: string): string {
  const path = url.split('?')[0];
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
