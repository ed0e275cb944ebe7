import { GraphQLError } from 'graphql';
import type { Context as WsContext } from 'graphql-ws';
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { ApiError } from './api-error.js';
import type { RequestContext } from '../players/auth.js';
import type { PlayersService } from '../players/players.service.js';
import type { WsKeepAlive } from '../realtime/ws-keepalive.js';

type WsExtra = { player?: RequestContext['player']; socket?: WebSocket; request?: IncomingMessage };

/** graphql-ws's close code for a refused connection_init; its own reason is a bare "Forbidden". */
export const WS_FORBIDDEN = 4403;

/**
 * One authentication path for both transports: HTTP reads the Authorization header; graphql-ws
 * reads the connection params (see `wsAuthorization`), checked once in onConnect and remembered
 * on the connection.
 */
export function graphqlContext(players: PlayersService) {
  return async (arg: HttpContextArg | WsContext<Record<string, unknown>, WsExtra>): Promise<RequestContext> => {
    if (isWs(arg)) return { player: arg.extra.player ?? null, transport: 'ws' };
    try {
      return { player: await players.authenticate((arg.req ?? arg).headers?.authorization), transport: 'http' };
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

/**
 * The Authorization value of a graphql-ws connection: the connection params' `authorization` key
 * in any letter case (clients write it as they would the HTTP header), else the Authorization
 * header of the upgrade request (for clients that can set headers on it). Undefined: anonymous.
 */
export function wsAuthorization(params: Record<string, unknown> | undefined, request: IncomingMessage | undefined): unknown {
  for (const [key, value] of Object.entries(params ?? {})) {
    if (key.toLowerCase() === 'authorization' && value !== undefined && value !== null && value !== '') return value;
  }
  return request?.headers?.authorization;
}

export function graphqlWsOnConnect(players: PlayersService, keepAlive: WsKeepAlive) {
  return async (ctx: WsContext<Record<string, unknown> | undefined, unknown>): Promise<boolean> => {
    const extra = ctx.extra as WsExtra;
    if (extra.socket) keepAlive.track(extra.socket);
    try {
      extra.player = await players.authenticate(wsAuthorization(ctx.connectionParams, extra.request));
      return true;
    } catch (e) {
      // graphql-ws would close with a bare "Forbidden": close first with the reason HTTP gives
      // (its own close that follows is then a no-op on a closing socket).
      if (e instanceof ApiError) extra.socket?.close(WS_FORBIDDEN, e.message);
      return false;
    }
  };
}
