import { GraphQLError } from 'graphql';
import type { Context as WsContext } from 'graphql-ws';
import { ApiError } from './api-error.js';
import type { RequestContext } from '../players/auth.js';
import type { PlayersService } from '../players/players.service.js';
import type { WsConnections } from '../limits/ws-connections.js';
import type { WsKeepAlive } from '../realtime/ws-keepalive.js';
import type { WebSocket } from 'ws';

type WsExtra = { player?: RequestContext['player'] };

/**
 * One authentication path for both transports: HTTP reads the Authorization header; graphql-ws
 * reads `connectionParams.authorization`, checked once in onConnect (a bad token closes the
 * socket with 4403) and remembered on the connection.
 */
export function graphqlContext(players: PlayersService, connections?: WsConnections) {
  return async (arg: HttpContextArg | WsContext<Record<string, unknown>, WsExtra>): Promise<RequestContext> => {
    if (isWs(arg)) {
      const socket = (arg.extra as { socket?: WebSocket }).socket;
      return {
        player: arg.extra.player ?? null,
        connection: socket && connections ? { fellBehind: () => connections.fellBehind(socket) } : undefined,
      };
    }
    try {
      return { player: await players.authenticate((arg.req ?? arg).headers?.authorization) };
    } catch (e) {
      // Thrown before any resolver runs, so Nest's filter never sees it: shape it for Apollo.
      if (e instanceof ApiError) throw new GraphQLError(e.message, { extensions: { code: e.code, http: { status: 401 } } });
      throw e;
    }
  };
}

/** What Apollo hands the context function on HTTP: the request itself (Fastify) or `{ req }` (Express). */
type HttpContextArg = { req?: { headers?: Record<string, unknown> }; headers?: Record<string, unknown> };

function isWs(arg: object): arg is WsContext<Record<string, unknown>, WsExtra> {
  return 'extra' in arg && 'subscriptions' in arg;
}

/** graphql-ws's connection_init: the player (or null, anonymous), or false for a bad token (closed with 4403). */
export function graphqlWsOnConnect(players: PlayersService, keepAlive: WsKeepAlive) {
  return async (ctx: WsContext<Record<string, unknown> | undefined, unknown>): Promise<{ playerId: string | null } | false> => {
    const socket = (ctx.extra as { socket?: WebSocket }).socket;
    if (socket) keepAlive.track(socket);
    try {
      const player = await players.authenticate(ctx.connectionParams?.authorization);
      (ctx.extra as WsExtra).player = player;
      return { playerId: player?.id ?? null };
    } catch {
      return false;
    }
  };
}
