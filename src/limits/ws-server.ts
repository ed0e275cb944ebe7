import { Logger } from '@nestjs/common';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Limits } from '../config/limits.config.js';
import type { WsConnections } from './ws-connections.js';

/**
 * Bounds the graphql-ws WebSocket server: messages over WS_MAX_PAYLOAD_BYTES close the socket
 * with 1009 before they are buffered whole, and an address over WS_MAX_SOCKETS_PER_ADDRESS is
 * refused at the upgrade with HTTP 429.
 */
export function applyWsServerLimits(wss: WebSocketServer, connections: WsConnections, limits: Limits['ws']): void {
  wss.options.maxPayload = limits.maxPayloadBytes;
  wss.options.verifyClient = (info: { req: Parameters<WsConnections['admit']>[0] }, done: (ok: boolean, code?: number, message?: string) => void) =>
    connections.admit(info.req)
      ? done(true)
      : done(false, 429, `Too many connections from this address (WS_MAX_SOCKETS_PER_ADDRESS = ${limits.maxSocketsPerAddress})`);
  // A socket error (an oversized message included) is no server failure: ws closes the socket
  // itself (1009, or the peer is gone). graphql-ws's own adapter printed a stack for each, which a
  // client could use to flood the log; a debug line is enough.
  const logger = new Logger('WebSocket');
  wss.on('connection', (socket: WebSocket) => {
    socket.on('error', (err: Error) => logger.debug(`socket error: ${err.message}`));
  });
}
