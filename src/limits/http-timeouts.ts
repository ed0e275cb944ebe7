import type { Server } from 'node:http';
import type { FastifyHttpOptions } from 'fastify';
import type { Limits } from '../config/limits.config.js';

/**
 * Fastify's (and Node's) HTTP timeouts. A client has HTTP_REQUEST_TIMEOUT_MS to send a whole
 * request, headers included, however it trickles it in (slowloris); a silent socket is closed
 * after HTTP_CONNECTION_TIMEOUT_MS, an idle keep-alive one after HTTP_KEEPALIVE_TIMEOUT_MS.
 * Node checks the request deadlines on an interval; a short one cuts a trickling client close to
 * its deadline rather than up to 30 s (Node's default) after it.
 */
export function httpTimeouts(limits: Limits['http']): FastifyHttpOptions<Server> {
  const requestTimeout = limits.requestTimeoutMs;
  return {
    connectionTimeout: limits.connectionTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout,
    http: {
      requestTimeout,
      headersTimeout: requestTimeout,
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(requestTimeout / 4))),
    },
  };
}
