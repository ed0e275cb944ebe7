import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How long the connections with no request in work have, once the server closes, before they are cut. */
const ARRIVING_GRACE_MS = 1_000;

/**
 * The server's close waits for the requests in flight to be answered. A request still arriving
 * (its headers or its body trickling in, or never coming) is no work in flight: it would hold the
 * shutdown up until HTTP_REQUEST_TIMEOUT_MS, or past SHUTDOWN_TIMEOUT_MS, and any client could
 * send one. Once the server closes, every connection whose requests are all answered or still
 * arriving has a second to finish (as WebSockets have to close); then it is cut. A request is in
 * work from the moment its body has arrived (preValidation) until it is answered, counted per
 * connection, so a pipelined request still arriving behind one in work keeps the connection.
 */
export function cutArrivingRequestsOnClose(fastify: FastifyInstance): void {
  const connections = new Set<Socket>();
  const inWork = new Map<Socket, number>();
  fastify.server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => {
      connections.delete(socket);
      inWork.delete(socket);
    });
  });
  const count = (socket: Socket, by: number) => {
    const n = (inWork.get(socket) ?? 0) + by;
    if (n > 0) inWork.set(socket, n);
    else inWork.delete(socket);
  };
  const counted = new WeakSet<object>();
  fastify.addHook('preValidation', async (request) => {
    counted.add(request);
    count(request.raw.socket, 1);
  });
  // Only a request counted in: one refused before its body was read never was.
  fastify.addHook('onResponse', async (request) => void (counted.has(request) && count(request.raw.socket, -1)));
  fastify.addHook('preClose', (done) => {
    setTimeout(() => {
      for (const socket of connections) if (!inWork.has(socket)) socket.destroy();
    }, ARRIVING_GRACE_MS).unref();
    done();
  });
}
