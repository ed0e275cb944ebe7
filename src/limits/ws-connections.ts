import type { IncomingMessage } from 'node:http';
import { Inject, Injectable, Optional, type OnApplicationShutdown } from '@nestjs/common';
import { GraphQLError } from 'graphql';
import type { Context as WsContext } from 'graphql-ws';
import type { WebSocket } from 'ws';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import type { Limits } from '../config/limits.config.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { clientKey } from '../rate-limits/client-key.js';

/**
 * Close codes of the graphql-ws connection set by these limits (the README lists them with the
 * protocol's own, e.g. 4408 for a connection_init that never came, and 1009 for a message over
 * WS_MAX_PAYLOAD_BYTES). All are in the 4000–4999 range left to applications.
 */
export const WS_CLOSE = {
  /** The player already has WS_MAX_SOCKETS_PER_PLAYER sockets open. */
  tooManySockets: 4290,
  /** A subscription had WS_SUBSCRIPTION_QUEUE events waiting for this reader: reconnect and resume with afterSeq. */
  fellBehind: 4291,
  /** No subscription for WS_IDLE_TIMEOUT_MS. */
  idle: 4292,
} as const;

interface Tracked {
  ctx: WsContext<Record<string, unknown> | undefined, unknown>;
  /** Last time the socket had a subscription (or connected). */
  busyAt: number;
}

/**
 * Counts of open graphql-ws connections, per address (checked at the HTTP upgrade, before any
 * WebSocket exists) and per player (checked once the token is known), subscriptions per
 * connection, and connections that sit with no subscription. One timer for all connections.
 */
@Injectable()
export class WsConnections implements OnApplicationShutdown {
  private readonly limits: Limits['ws'];
  private readonly byAddress = new Map<string, number>();
  private readonly byPlayer = new Map<string, number>();
  private readonly tracked = new Map<WebSocket, Tracked>();
  private readonly timer: NodeJS.Timeout | null = null;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Optional() metrics?: MetricsService) {
    this.limits = config.limits.ws;
    metrics?.gauge('dominoes_open_sockets', 'graphql-ws connections open in this process.', () => this.openSockets);
    if (this.limits.idleTimeoutMs > 0) {
      this.timer = setInterval(() => this.closeIdle(), Math.max(250, Math.min(this.limits.idleTimeoutMs / 4, 30_000)));
      this.timer.unref();
    }
  }

  /** graphql-ws connections open now (GET /metrics). */
  get openSockets(): number {
    return this.tracked.size;
  }

  /** At the upgrade request: false refuses it (HTTP 429) when its address holds WS_MAX_SOCKETS_PER_ADDRESS. */
  admit(req: IncomingMessage): boolean {
    const address = clientKey(req.socket.remoteAddress ?? '');
    const open = this.byAddress.get(address) ?? 0;
    if (open >= this.limits.maxSocketsPerAddress) return false;
    this.byAddress.set(address, open + 1);
    req.socket.once('close', () => release(this.byAddress, address));
    return true;
  }

  /** Once the connection is authenticated: false when its player already holds WS_MAX_SOCKETS_PER_PLAYER (the socket is then closed). */
  register(socket: WebSocket, ctx: Tracked['ctx'], playerId: string | null): boolean {
    // Counted only while open: a socket closed already gets no 'close' event to release its count.
    if (socket.readyState !== socket.OPEN) return false;
    if (playerId) {
      const open = this.byPlayer.get(playerId) ?? 0;
      if (open >= this.limits.maxSocketsPerPlayer) {
        socket.close(
          WS_CLOSE.tooManySockets,
          `Too many connections for this player (WS_MAX_SOCKETS_PER_PLAYER = ${this.limits.maxSocketsPerPlayer})`,
        );
        return false;
      }
      this.byPlayer.set(playerId, open + 1);
      socket.once('close', () => release(this.byPlayer, playerId));
    }
    this.tracked.set(socket, { ctx, busyAt: Date.now() });
    socket.once('close', () => this.tracked.delete(socket));
    return true;
  }

  /** For a subscribe message: the refusal when the connection already runs WS_MAX_SUBSCRIPTIONS_PER_SOCKET. */
  subscriptionLimitError(ctx: Tracked['ctx']): GraphQLError | null {
    // graphql-ws has already entered this subscription's id.
    const running = Object.keys(ctx.subscriptions).length;
    const max = this.limits.maxSubscriptionsPerSocket;
    if (running <= max) return null;
    return new GraphQLError(`Too many subscriptions on this connection (WS_MAX_SUBSCRIPTIONS_PER_SOCKET = ${max})`, {
      extensions: { code: 'BAD_USER_INPUT', limit: 'WS_MAX_SUBSCRIPTIONS_PER_SOCKET', max },
    });
  }

  /**
   * What a subscription's feed calls when its reader fell behind. The close frame waits behind
   * what the reader has not read yet (it sees the code once it reads on, or the socket is cut
   * after ws's close timeout); every subscription of the connection ends now, so nothing more
   * is queued for it meanwhile.
   */
  fellBehind(socket: WebSocket): void {
    socket.close(WS_CLOSE.fellBehind, `Fell behind by ${this.limits.subscriptionQueue} events (WS_SUBSCRIPTION_QUEUE): resubscribe with afterSeq`);
    const subscriptions = this.tracked.get(socket)?.ctx.subscriptions ?? {};
    for (const running of Object.values(subscriptions)) void (running as AsyncIterator<unknown> | null)?.return?.();
  }

  get open(): { addresses: number; players: number; sockets: number } {
    return { addresses: this.byAddress.size, players: this.byPlayer.size, sockets: this.tracked.size };
  }

  private closeIdle(): void {
    const now = Date.now();
    for (const [socket, t] of this.tracked) {
      if (Object.keys(t.ctx.subscriptions).length > 0) t.busyAt = now;
      else if (now - t.busyAt >= this.limits.idleTimeoutMs) {
        this.tracked.delete(socket);
        socket.close(WS_CLOSE.idle, `No subscription for ${this.limits.idleTimeoutMs} ms (WS_IDLE_TIMEOUT_MS)`);
      }
    }
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }
}

function release(counts: Map<string, number>, key: string): void {
  const n = (counts.get(key) ?? 1) - 1;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}
