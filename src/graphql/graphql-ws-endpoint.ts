import type { Server } from 'node:http';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { WebSocketServer, type WebSocket } from 'ws';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { QueryLimits } from '../limits/query-limits.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { WsConnections } from '../limits/ws-connections.js';
import { applyWsServerLimits } from '../limits/ws-server.js';
import { PlayersService } from '../players/players.service.js';
import { SocketSessions } from '../players/socket-sessions.js';
import { RateLimits } from '../rate-limits/rate-limits.service.js';
import { WsKeepAlive } from '../realtime/ws-keepalive.js';
import { formatError } from './format-error.js';
import { graphqlContext, graphqlWsOnConnect, graphqlWsOnSubscribe, graphqlWsOnSubscription, type TransportDeps } from './graphql-context.js';
import { graphqlWsLimitOptions } from './graphql-ws-options.js';
import { serveGraphqlWs } from './graphql-ws-server.js';

/** Where graphql-ws is served: the same path as GraphQL over HTTP. */
export const GRAPHQL_PATH = '/graphql';

/** How long sockets told to go away (1001) have to close before they are cut. */
const GOING_AWAY_GRACE_MS = 1_000;

/**
 * The graphql-ws endpoint, on the HTTP server's upgrades to /graphql. It is set up here rather
 * than by @nestjs/graphql's driver, which offers no say over graphql-ws's keep-alive: every socket
 * got a ping timer of its own (12 s) on top of WsKeepAlive's one sweep for all of them
 * (WS_KEEPALIVE_MS), and the WebSocket server could only be bounded through the driver's private
 * fields. Same options as before: the limits, the shared execution, the one context function.
 */
@Injectable()
export class GraphqlWsEndpoint implements OnModuleDestroy {
  private disposable: { dispose(): void | Promise<void> } | undefined;
  private wss: WebSocketServer | undefined;
  private goingAway: Promise<void> | undefined;
  private readonly logger = new Logger('GraphQL');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly players: PlayersService,
    private readonly keepAlive: WsKeepAlive,
    private readonly limits: RateLimits,
    private readonly sockets: SocketSessions,
    private readonly queries: QueryLimits,
    private readonly connections: WsConnections,
    private readonly modules: ModuleRef,
    private readonly metrics: MetricsService,
  ) {}

  /** Starts answering upgrades on `httpServer` (once the GraphQL schema is built: after app.init()). */
  listen(httpServer: Server): WebSocketServer {
    const transport: TransportDeps = {
      players: this.players,
      keepAlive: this.keepAlive,
      limits: this.limits,
      sockets: this.sockets,
      connections: this.connections,
    };
    const schema = () => this.modules.get(GraphQLSchemaHost, { strict: false }).schema;
    const wss = new WebSocketServer({ noServer: true, path: GRAPHQL_PATH });
    this.wss = wss;
    this.disposable = serveGraphqlWs(
      {
        schema,
        context: graphqlContext(transport),
        ...graphqlWsLimitOptions({
          limits: this.config.limits.ws,
          queries: this.queries,
          connections: this.connections,
          schema,
          authenticate: graphqlWsOnConnect(transport),
          beforeSubscribe: graphqlWsOnSubscribe(transport),
          beforeSubscription: graphqlWsOnSubscription(transport),
          formatError: formatError(
            (err) => this.logger.error(err),
            this.queries,
            (code) => this.metrics.graphqlError(code),
          ),
        }),
        // A socket whose token a rotate or revoke on it made stale closes once that answer is out.
        onComplete: (ctx, id) => {
          const socket = (ctx.extra as { socket?: WebSocket }).socket;
          if (socket) this.sockets.answered(socket, id);
        },
      },
      wss,
    );
    applyWsServerLimits(wss, this.connections, this.config.limits.ws);
    httpServer.on('upgrade', (req, socket, head) => {
      // An upgrade to any other path is dropped instead of left open.
      // So is any upgrade once the server is going away.
      if (!req.url?.startsWith(GRAPHQL_PATH) || this.goingAway) return void socket.destroy();
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    });
    return wss;
  }

  /**
   * Closes every socket with 1001 (going away), cuts those whose peer has not closed within a
   * second, and stops the WebSocket server. Shutdown calls it first: the HTTP server's close
   * waits for every connection, upgraded ones included, so an open socket held it for good.
   */
  goAway(): Promise<void> {
    this.goingAway ??= (async () => {
      const wss = this.wss;
      if (wss) {
        for (const socket of wss.clients) socket.close(1001, 'server shutting down');
        const deadline = Date.now() + GOING_AWAY_GRACE_MS;
        while (wss.clients.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        for (const socket of wss.clients) socket.terminate();
      }
      await this.disposable?.dispose();
    })();
    return this.goingAway;
  }

  async onModuleDestroy(): Promise<void> {
    await this.goAway();
  }
}
