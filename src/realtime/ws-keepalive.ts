import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { WebSocket } from 'ws';
import { APP_CONFIG, type AppConfig } from '../config/config.js';

/**
 * WebSocket-level pings for graphql-ws connections: they keep idle connections open through
 * proxies that drop silent sockets, and a peer that stops answering is terminated instead of
 * holding its subscriptions forever. One timer for all connections.
 */
@Injectable()
export class WsKeepAlive implements OnApplicationShutdown {
  private readonly alive = new Map<WebSocket, boolean>();
  private readonly timer: NodeJS.Timeout;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.timer = setInterval(() => this.sweep(), config.wsKeepAliveMs);
    this.timer.unref();
  }

  track(socket: WebSocket): void {
    if (this.alive.has(socket)) return;
    this.alive.set(socket, true);
    socket.on('pong', () => this.alive.set(socket, true));
    socket.once('close', () => this.alive.delete(socket));
  }

  get connections(): number {
    return this.alive.size;
  }

  private sweep(): void {
    for (const [socket, alive] of this.alive) {
      if (!alive) {
        socket.terminate();
        this.alive.delete(socket);
        continue;
      }
      this.alive.set(socket, false);
      socket.ping();
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
