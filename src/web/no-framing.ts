import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * No page of this server may be framed by another site, and no answer is sniffed as another
 * type. The web client sets its whole, stricter policy itself (WEB_CLIENT_HEADERS); this covers
 * the rest, above all the GraphQL IDE (GET /graphql and its files), which runs on the origin where
 * the web client keeps its token: framed, it could be clicked through by a hostile page. Framing
 * by this origin stays allowed (the IDE frames its own sandbox page); its scripts are left alone
 * (Altair's page has inline ones).
 */
export function refuseFraming(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (_request, reply, payload) => {
    protectAnswer(reply);
    if (!reply.hasHeader('content-security-policy') && String(reply.getHeader('content-type') ?? '').startsWith('text/html'))
      reply.header('content-security-policy', "frame-ancestors 'self'");
    return payload;
  });
}

/** The headers every answer carries, unless it set its own (an answer sent where no onSend hook runs sets them itself). */
export function protectAnswer(reply: FastifyReply): void {
  if (!reply.hasHeader('x-frame-options')) reply.header('x-frame-options', 'SAMEORIGIN');
  if (!reply.hasHeader('x-content-type-options')) reply.header('x-content-type-options', 'nosniff');
}
