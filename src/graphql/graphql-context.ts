import { Logger } from '@nestjs/common';
import { GraphQLError } from 'graphql';
import type { Context as WsContext } from 'graphql-ws';
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { ApiError } from '../common/api-error.js';
import { rateLimitedHttp } from './api-error.filter.js';
import type { RequestContext, SerializedPayload } from '../players/auth.js';
import type { PlayersService, Session } from '../players/players.service.js';
import type { SocketSessions } from '../players/socket-sessions.js';
import { RateLimitedError, type RateLimits } from '../rate-limits/rate-limits.service.js';
import type { WsKeepAlive } from '../realtime/ws-keepalive.js';
import type { WsConnections } from '../limits/ws-connections.js';
import { clientKey } from '../rate-limits/client-key.js';

type WsExtra = { socket?: WebSocket; request?: IncomingMessage; session?: Session | null; address?: string };

/** The close code of a graphql-ws connection refused for connecting too often (the reason says when to retry). */
export const RATE_LIMITED_CLOSE_CODE = 4429;

/** graphql-ws's close code for a refused connection_init; its own reason is a bare "Forbidden". */
export const WS_FORBIDDEN = 4403;

/** graphql-ws's close code for a failure on the server: the client reconnects with backoff. */
export const WS_INTERNAL_ERROR = 4500;

const logger = new Logger('GraphQL');

export interface TransportDeps {
  players: PlayersService;
  keepAlive: WsKeepAlive;
  limits: RateLimits;
  sockets: SocketSessions;
  connections: WsConnections;
}

/**
 * One authentication path for both transports: HTTP reads the Authorization header; graphql-ws
 * reads the connection params (see `wsAuthorization`), checked once in onConnect (a bad token
 * closes the socket with 4403 and the reason HTTP gives) and remembered on the connection.
 * Per-player HTTP budgets are spent here, once per request.
 */
export function graphqlContext({ players, limits, connections }: Pick<TransportDeps, 'players' | 'limits' | 'connections'>) {
  // graphql-ws calls it once per operation, with the operation's id.
  return async (arg: HttpContextArg | WsContext<Record<string, unknown>, WsExtra>, id?: unknown): Promise<RequestContext> => {
    if (isWs(arg)) {
      const { session, address, socket } = arg.extra;
      return {
        player: session?.player ?? null,
        tokenHash: session?.tokenHash ?? null,
        address: address ?? 'unknown',
        transport: 'ws',
        connection: socket
          ? {
              socket,
              fellBehind: () => connections.fellBehind(socket),
              ...(typeof id === 'string' ? { operationId: id, sendNext: nextMessageWriter(socket, id) } : {}),
            }
          : undefined,
      };
    }
    const req = arg.req ?? arg;
    try {
      const session = await players.session(req.headers?.authorization);
      if (session) await limits.consume('httpPlayer', session.player.id);
      return { player: session?.player ?? null, tokenHash: session?.tokenHash ?? null, address: clientKey(req.ip ?? 'unknown'), transport: 'http' };
    } catch (e) {
      // Thrown before any resolver runs, so Nest's filter never sees it: shape it for Apollo.
      if (e instanceof RateLimitedError) throw rateLimitedGraphQLError(e);
      if (e instanceof ApiError) throw new GraphQLError(e.message, { extensions: { code: e.code, http: { status: 401 } } });
      throw e;
    }
  };
}

/**
 * Unsent bytes past which a socket gets no direct writes: its values then go through graphql-ws,
 * which writes one at a time and lets the subscription's bounded queue overflow (closing the
 * socket) if the peer stops reading.
 */
const DIRECT_WRITE_MAX_BUFFERED = 64 * 1024;

/**
 * Distinct subscription ids whose message is kept per shared payload: clients mostly pick the
 * same few ("1"), and a payload held for thousands of distinct ids would hold as many copies.
 */
const MESSAGES_KEPT_PER_PAYLOAD = 64;

/**
 * The `next` message graphql-ws writes (`{"id":…,"type":"next","payload":…}`), around a payload
 * serialized once. The message is encoded once per id and payload and written as a text frame
 * from those bytes: at 10,000 watchers of one match, encoding a string per socket was a tenth
 * of the fan-out (bench:subscriptions).
 */
function nextMessageWriter(socket: WebSocket, id: string): (payload: SerializedPayload) => boolean {
  const head = `{"id":${JSON.stringify(id)},"type":"next","payload":`;
  return (payload) => {
    if (socket.readyState !== socket.OPEN || socket.bufferedAmount > DIRECT_WRITE_MAX_BUFFERED) return false;
    let message = payload.messages.get(id);
    if (!message) {
      message = Buffer.from(`${head}${payload.json}}`);
      if (payload.messages.size < MESSAGES_KEPT_PER_PAYLOAD) payload.messages.set(id, message);
    }
    socket.send(message, { binary: false });
    return true;
  };
}

/** A RATE_LIMITED GraphQL error; on HTTP, Apollo answers it with status 429 and `Retry-After`. */
export function rateLimitedGraphQLError(e: RateLimitedError): GraphQLError {
  return new GraphQLError(e.message, { extensions: { code: e.code, retryAfter: e.retryAfter, http: rateLimitedHttp(e) } });
}

/** What Apollo hands the context function on HTTP: the request itself (Fastify) or `{ req }` (Express). */
type HttpRequestLike = { headers?: Record<string, unknown>; ip?: string };
type HttpContextArg = HttpRequestLike & { req?: HttpRequestLike };

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

/**
 * graphql-ws's connection_init: the player (or null, anonymous), or false to refuse (a bad token
 * closes with 4403 and HTTP's reason; connecting too often, with 4429). The socket limits of
 * src/limits run after it.
 */
export function graphqlWsOnConnect({ players, keepAlive, limits, sockets }: TransportDeps) {
  return async (ctx: WsContext<Record<string, unknown> | undefined, unknown>): Promise<{ playerId: string | null } | false> => {
    const extra = ctx.extra as WsExtra;
    const socket = extra.socket;
    if (socket) keepAlive.track(socket);
    extra.address = clientKey(extra.request?.socket.remoteAddress ?? 'unknown');
    try {
      await limits.consume('wsConnect', extra.address);
    } catch (e) {
      if (!(e instanceof RateLimitedError)) throw e;
      // Closed here with its own code; graphql-ws's 4403 for `false` then finds the socket closing.
      socket?.close(RATE_LIMITED_CLOSE_CODE, `Rate limited: retry after ${e.retryAfter} s`);
      return false;
    }
    try {
      extra.session = await players.session(wsAuthorization(ctx.connectionParams, extra.request));
    } catch (e) {
      // graphql-ws would close with a bare "Forbidden": close first with the reason HTTP gives
      // (its own close that follows is then a no-op on a closing socket). A failure to look the
      // token up (the database is away) is no verdict on the token: a client told 4403 would drop
      // a good one, so it is told 4500 and reconnects.
      if (e instanceof ApiError) socket?.close(WS_FORBIDDEN, e.message);
      else {
        logger.error(e);
        socket?.close(WS_INTERNAL_ERROR, 'Internal server error');
      }
      return false;
    }
    // The client may have gone while the checks above waited: a socket already closed gets no
    // 'close' event again, so whatever is counted for it now would never be released.
    if (socket && socket.readyState !== socket.OPEN) return false;
    if (socket && extra.session) sockets.track(socket, extra.session.tokenHash, extra.session.player.id);
    return { playerId: extra.session?.player.id ?? null };
  };
}

/**
 * Every operation over a socket spends, before it is parsed, from a budget: a player's from the
 * same per-token budget as a GraphQL request over HTTP (RATE_LIMIT_HTTP_PLAYER), so a bot playing
 * over its socket gets what it gets over HTTP (with that budget off, from the player's budget of
 * WebSocket subscriptions instead); an anonymous socket's from its address's budget of WebSocket
 * operations. A socket whose token was just rotated or revoked over it takes no new
 * operation while it waits to close (SocketSessions.closeStale).
 */
export function graphqlWsOnSubscribe({ limits, sockets }: TransportDeps) {
  return async (ctx: WsContext<Record<string, unknown> | undefined, unknown>): Promise<GraphQLError[] | void> => {
    const extra = ctx.extra as WsExtra;
    if (extra.socket && sockets.closing(extra.socket)) {
      return [new GraphQLError('unknown or revoked token', { extensions: { code: 'UNAUTHENTICATED' } })];
    }
    const player = extra.session?.player.id;
    if (!player) return refusedBy(limits, ['wsSubscribe', `address:${extra.address ?? 'unknown'}`]);
    // With the per-token budget off, a socket (which no per-address HTTP budget covers) still
    // spends from one before its operations are parsed: the player's subscribe budget.
    return refusedBy(limits, [limits.limits('httpPlayer') ? 'httpPlayer' : 'wsSubscribe', player]);
  };
}

/**
 * A subscription a player starts spends, besides, from the player's budget of subscriptions
 * (RATE_LIMIT_WS_SUBSCRIBE): each one holds server memory and a feed for as long as it lives.
 * (An anonymous socket's operations all spent from that budget already.)
 */
export function graphqlWsOnSubscription({ limits }: TransportDeps) {
  return async (ctx: WsContext<Record<string, unknown> | undefined, unknown>): Promise<GraphQLError[] | void> => {
    const player = (ctx.extra as WsExtra).session?.player.id;
    // (Spent already before parsing when the per-token budget is off.)
    if (player && limits.limits('httpPlayer')) return refusedBy(limits, ['wsSubscribe', player]);
  };
}

async function refusedBy(limits: RateLimits, [budget, key]: Parameters<RateLimits['consume']>): Promise<GraphQLError[] | void> {
  try {
    await limits.consume(budget, key);
  } catch (e) {
    if (!(e instanceof RateLimitedError)) throw e;
    return [new GraphQLError(e.message, { extensions: { code: e.code, retryAfter: e.retryAfter } })];
  }
}
