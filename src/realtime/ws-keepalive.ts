import { randomInt } from 'node:crypto';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { WebSocket } from 'ws';
import { APP_CONFIG, type AppConfig } from '../config/config.js';

/** A socket that answered its last ping (or has not been pinged yet). */
const ANSWERED = -1;

/**
 * WebSocket-level pings for graphql-ws connections: they keep idle connections open through
 * proxies that drop silent sockets, and a peer that stops answering is terminated instead of
 * holding its subscriptions forever. One timer for all connections.
 *
 * Each ping carries a fresh random number, and only a pong that echoes it (as RFC 6455 has every
 * client do) counts: a peer that stopped reading, its pings stuck behind everything it has not
 * read, cannot keep its socket by sending pongs of its own.
 */
@Injectable()
export class WsKeepAlive implements OnApplicationShutdown {
  /** Per socket: the number its last ping carried, or ANSWERED. */
  private readonly awaiting = new Map<WebSocket, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.timer = setInterval(() => this.sweep(), config.wsKeepAliveMs);
    this.timer.unref();
  }

  track(socket: WebSocket): void {
    if (this.awaiting.has(socket)) return;
    this.awaiting.set(socket, ANSWERED);
    socket.on('pong', (data: Buffer) => {
      const expected = this.awaiting.get(socket);
      if (expected !== undefined && expected !== ANSWERED && data.length === 4 && data.readUInt32BE(0) === expected)
        this.awaiting.set(socket, ANSWERED);
    });
    socket.once('close', () => this.awaiting.delete(socket));
  }

  get connections(): number {
    return this.awaiting.size;
  }

  private sweep(): void {
    for (const [socket, expected] of this.awaiting) {
      if (expected !== ANSWERED) {
        socket.terminate();
        this.awaiting.delete(socket);
        continue;
      }
      const nonce = randomInt(0, 2 ** 32 - 1);
      this.awaiting.set(socket, nonce);
      const payload = Buffer.allocUnsafe(4);
      payload.writeUInt32BE(nonce, 0);
      socket.ping(payload);
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
