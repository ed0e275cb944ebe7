import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How long a request still arriving when the server closes has to arrive before its connection is cut. */
const ARRIVING_GRACE_MS = 1_000;

/**
 * The server's close waits for the requests in flight to be answered. A request still arriving
 * (its headers sent, its body trickling in, or never coming) is no work in flight: it would hold
 * the shutdown up until HTTP_REQUEST_TIMEOUT_MS, or past SHUTDOWN_TIMEOUT_MS, and any client could
 * send one. Once the server closes, such a request has a second to finish arriving (as WebSockets
 * have to close); then its connection is cut.
 */
export function cutArrivingRequestsOnClose(fastify: FastifyInstance): void {
  const arriving = new Set<Socket>();
  const watched = new WeakSet<Socket>();
  fastify.addHook('onRequest', async (request) => {
    const socket = request.raw.socket;
    arriving.add(socket);
    if (watched.has(socket)) return;
    watched.add(socket); // one listener a connection, however many requests it carries
    socket.once('close', () => arriving.delete(socket));
  });
  // The body has arrived (or there is none): the request is work in flight now.
  fastify.addHook('preValidation', async (request) => void arriving.delete(request.raw.socket));
  fastify.addHook('onResponse', async (request) => void arriving.delete(request.raw.socket));
  fastify.addHook('preClose', (done) => {
    setTimeout(() => arriving.forEach((socket) => socket.destroy()), ARRIVING_GRACE_MS).unref();
    done();
  });
}
