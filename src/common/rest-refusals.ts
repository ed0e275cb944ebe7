import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { graphqlErrorBody, graphqlMediaType, isGraphqlPath } from '../graphql/graphql-refusal.js';
import { protectAnswer } from '../web/no-framing.js';
import { codeOfStatus } from './rest-error.filter.js';

/** The longest message a refusal repeats: Fastify's and Nest's words may quote the request's path, which the client chose. */
const MAX_MESSAGE = 200;

/**
 * Refusals that happen before any route of this API runs, in the shapes its docs promise: a
 * GraphQL answer with `errors[0].extensions.code` on /graphql, `{ code, message }` everywhere
 * else. They come from Fastify (a path parameter over its length limit, 414) and Nest (no route
 * for that path or method, 404: `PUT /graphql`, `GET /nope`), which answer
 * `{ statusCode, code: "FST_ERR_…", … }` or `{ statusCode, error, message }`. An answer that
 * already carries one of this API's codes, or has a shape of its own (a health check's), is left
 * as it is.
 */
export function answerRefusalsWithCodes(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
    let body: { code?: unknown; message?: unknown; statusCode?: unknown };
    try {
      body = JSON.parse(payload) as typeof body;
    } catch {
      return payload;
    }
    if (typeof body !== 'object' || body === null || typeof body.statusCode !== 'number') return payload;
    if (typeof body.code === 'string' && !body.code.startsWith('FST_ERR_')) return payload;
    const message = typeof body.message === 'string' ? body.message : 'the request was refused';
    const answer = refusal(request, reply.statusCode, message);
    reply.header('content-type', answer.type);
    return answer.body;
  });
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any hook or route (a path whose
 * percent-encoding is broken), answered as every other refusal of the path is. No onSend hook
 * runs for it, so it carries the headers every answer carries itself.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode ?? 400;
  const answer = refusal(request, status, error.message);
  protectAnswer(reply);
  void reply.code(status).header('content-type', answer.type).send(answer.body);
}

/** The refusal's body and media type: a GraphQL answer on /graphql, `{ code, message }` elsewhere. */
function refusal(request: FastifyRequest, status: number, message: string): { type: string; body: string } {
  const code = codeOfStatus(status);
  const said = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
  if (isGraphqlPath(request.url)) return { type: graphqlMediaType(request.headers.accept), body: graphqlErrorBody(said, { code }) };
  return { type: 'application/json; charset=utf-8', body: JSON.stringify({ code, message: said }) };
}
