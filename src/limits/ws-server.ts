import type { Server } from 'node:http';
import { Logger, type INestApplication } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Limits } from '../config/limits.config.js';
import { WsConnections } from './ws-connections.js';

/**
 * Bounds the WebSocket server that @nestjs/graphql creates for graphql-ws (it offers no option
 * for them): messages over WS_MAX_PAYLOAD_BYTES close the socket with 1009 before they are
 * buffered whole, an address over WS_MAX_SOCKETS_PER_ADDRESS is refused at the upgrade with
 * HTTP 429, and an upgrade to any other path is dropped instead of left open.
 */
export function applyWsServerLimits(app: INestApplication, limits: Limits['ws']): void {
  const wss = findWebSocketServer(app);
  const connections = app.get(WsConnections);
  wss.options.maxPayload = limits.maxPayloadBytes;
  wss.options.verifyClient = (info: { req: Parameters<WsConnections['admit']>[0] }, done: (ok: boolean, code?: number, message?: string) => void) =>
    connections.admit(info.req)
      ? done(true)
      : done(false, 429, `Too many connections from this address (WS_MAX_SOCKETS_PER_ADDRESS = ${limits.maxSocketsPerAddress})`);
  // graphql-ws prints every socket error to the console, an oversized message included: one line
  // of stack per attempt, which a client could use to flood the log. The socket is closed by ws
  // itself (1009, or the peer is gone); a debug line is enough.
  const logger = new Logger('WebSocket');
  wss.on('connection', (socket: WebSocket) => {
    socket.removeAllListeners('error');
    socket.on('error', (err: Error) => logger.debug(`socket error: ${err.message}`));
  });
  const path = wss.options.path ?? '/graphql';
  (app.getHttpServer() as Server).on('upgrade', (req, socket) => {
    if (!req.url?.startsWith(path)) socket.destroy();
  });
}

/** The graphql-ws server of Apollo's driver; boot fails rather than run without the bounds. */
function findWebSocketServer(app: INestApplication): WebSocketServer {
  const driver = app.get(GraphQLModule, { strict: false }).graphQlAdapter as unknown as { _subscriptionService?: { wss?: WebSocketServer } };
  const wss = driver._subscriptionService?.wss;
  if (!wss?.options) throw new Error('cannot apply the WebSocket limits: the graphql-ws server was not found');
  return wss;
}
