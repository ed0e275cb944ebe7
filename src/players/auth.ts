import { createParamDecorator, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { WebSocket } from 'ws';
import { ApiError } from '../common/api-error.js';
import type { Player } from './models/player.model.js';
import type { Session } from './players.service.js';

/**
 * What every resolver sees of the request, on HTTP and on graphql-ws alike: the context factory
 * (src/graphql/graphql-context.ts) authenticates once per request or subscription and puts the player here.
 */
export interface RequestContext {
  player: Player | null;
  /** digest of the token the player authenticated with (rotateToken/revokeToken act on it) */
  tokenHash: string | null;
  /** the client's address, for per-address rate limits */
  address: string;
  /** rounds this operation read so far (Match.rounds, queries and mutations): see RoundsBudget */
  roundsRead?: number;
  /** which transport carries the operation: HTTP can answer a refusal with its status code, and the fix for a missing token differs (a header, or connection params) */
  transport: 'http' | 'ws';
  /** graphql-ws only: the connection the operation runs on. */
  connection?: {
    /** The socket and this operation's id on it: a rotate or revoke closes the socket once this operation is answered. */
    socket: WebSocket;
    operationId?: string;
    fellBehind: () => void;
    /**
     * Writes this subscription's `next` message with an already serialized payload, exactly as
     * graphql-ws would; false when the socket is closing or has too much unsent, to leave the
     * value to graphql-ws (which paces itself on the socket).
     */
    sendNext?: (payload: SerializedPayload) => boolean;
  };
}

/**
 * A result shared by many subscribers, serialized once, with the `next` messages already built
 * around it by subscription id: subscribers whose clients chose the same id (most pick "1") get
 * the very same bytes, written without another copy.
 */
export interface SerializedPayload {
  readonly json: string;
  readonly messages: Map<string, Buffer>;
}

/** What an anonymous caller of a player-only operation is told, per transport. */
export const NEEDS_TOKEN = {
  http: 'this operation needs a player token: send the header Authorization: Bearer <token>',
  ws: 'this operation needs a player token: this socket connected anonymously; reconnect with the connection params { "authorization": "Bearer <token>" } in connection_init (or an Authorization header on the upgrade request)',
} as const;

function contextOf(ctx: ExecutionContext): RequestContext {
  return GqlExecutionContext.create(ctx).getContext<RequestContext>();
}

/** Lets a resolver run only for an authenticated player. */
@Injectable()
export class AuthGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const context = contextOf(ctx);
    if (!context.player) throw new ApiError('UNAUTHENTICATED', NEEDS_TOKEN[context.transport]);
    return true;
  }
}

/** The authenticated player, or null for an anonymous caller (use with AuthGuard to require one). */
export const CurrentPlayer = createParamDecorator((_data: unknown, ctx: ExecutionContext): Player | null => contextOf(ctx).player);

/** The client's address as the rate limits count it (an IPv6 address by its /64): whose turn a shared resource's queue serves. */
export const ClientAddress = createParamDecorator((_data: unknown, ctx: ExecutionContext): string => contextOf(ctx).address);

/** The authenticated player with the digest of the token used (with AuthGuard). */
export const CurrentSession = createParamDecorator((_data: unknown, ctx: ExecutionContext): Session => {
  const { player, tokenHash, connection } = contextOf(ctx);
  if (!player || !tokenHash) throw new ApiError('UNAUTHENTICATED', 'this operation needs a player token (Authorization: Bearer <token>)');
  return connection?.operationId
    ? { player, tokenHash, via: { socket: connection.socket, operationId: connection.operationId } }
    : { player, tokenHash };
});
