import { Logger } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { CloseCode, handleProtocols, makeServer, type ServerOptions } from 'graphql-ws';
import type { WebSocket, WebSocketServer } from 'ws';
import { isPeerGone } from '../common/client-gone.js';

/** What every graphql-ws hook finds in `ctx.extra`. */
export interface WsExtra {
  socket: WebSocket;
  request: IncomingMessage;
}

/** graphql-ws's words for a message of a type the server does not take from a client. */
const UNEXPECTED_MESSAGE = /^Unexpected message of type \S+ received$/;

/**
 * graphql-ws's server on a `ws` WebSocketServer, as its own `useServer` (graphql-ws/use/ws) but
 * for what a failed message does. There, any error out of handling one closed the socket with
 * 4500 and the error's text (an internal error's included, outside production) and printed its
 * stack to the console: a client sending a message of the server's side of the protocol
 * (`connection_ack`, `next`, `error`) got 4500, where the protocol says 4400, and left a stack in
 * the log each time. Here that is a 4400 naming the message type, and no log; an answer that
 * could not be written because the client went away (EPIPE, a reset) is logged at debug level, as
 * any client could leave one per connection; anything else is logged once and closed 4500
 * `Internal server error`.
 *
 * No keep-alive (WsKeepAlive pings every socket from one timer). A socket's errors are logged at
 * debug level by applyWsServerLimits, which GraphqlWsEndpoint applies right after this: without a
 * listener, an emitted error would end the process.
 */
export function serveGraphqlWs<P extends Record<string, unknown>>(
  options: ServerOptions<P, Partial<WsExtra>>,
  wss: WebSocketServer,
): { dispose(): Promise<void> } {
  const logger = new Logger('GraphqlWs');
  const server = makeServer<P, Partial<WsExtra>>(options);
  wss.options.handleProtocols = handleProtocols;
  wss.on('error', (err) => logger.error(err));
  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    // The errors of writes to this socket: only those say the client went away, whatever their code
    // (an ECONNRESET from the database during onConnect is the server's).
    const writeFailures = new WeakSet<object>();
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve, reject) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            socket.send(data, (err) => {
              if (!err) return resolve();
              writeFailures.add(err);
              reject(err);
            });
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (handle) =>
          socket.on('message', (data: Buffer) => {
            handle(String(data)).catch((err: unknown) => {
              const message = err instanceof Error ? err.message : String(err);
              if (UNEXPECTED_MESSAGE.test(message)) return socket.close(CloseCode.BadRequest, message);
              if (typeof err === 'object' && err !== null && writeFailures.has(err) && isPeerGone(err))
                return logger.debug(`answer not written, the client went away: ${message}`);
              logger.error(err);
              socket.close(CloseCode.InternalServerError, 'Internal server error');
            });
          }),
      },
      { socket, request },
    );
    socket.once('close', (code, reason) => void closed(code, String(reason)).catch((err: unknown) => logger.error(err)));
  });
  return {
    dispose: async () => {
      for (const socket of wss.clients) socket.close(1001, 'Going away');
      wss.removeAllListeners();
      await new Promise<void>((resolve, reject) => wss.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
