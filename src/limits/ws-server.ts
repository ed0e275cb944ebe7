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
  // graphql-ws prints every socket error to the console, an oversized message included: one line
  // of stack per attempt, which a client could use to flood the log. The socket is closed by ws
  // itself (1009, or the peer is gone); a debug line is enough.
  const logger = new Logger('WebSocket');
  wss.on('connection', (socket: WebSocket) => {
    socket.removeAllListeners('error');
    socket.on('error', (err: Error) => logger.debug(`socket error: ${err.message}`));
  });
}
