import { createParamDecorator, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { ApiError } from '../common/api-error.js';
import type { Player } from './models/player.model.js';

/**
 * What every resolver sees of the request, on HTTP and on graphql-ws alike: the context factory
 * (graphql-context.ts) authenticates once per request or subscription and puts the player here.
 */
export interface RequestContext {
  player: Player | null;
  /** graphql-ws only: the connection a subscription runs on. */
  connection?: { fellBehind(): void };
}

function contextOf(ctx: ExecutionContext): RequestContext {
  return GqlExecutionContext.create(ctx).getContext<RequestContext>();
}

/** Lets a resolver run only for an authenticated player. */
@Injectable()
export class AuthGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    if (!contextOf(ctx).player) throw new ApiError('UNAUTHENTICATED', 'this operation needs a player token (Authorization: Bearer <token>)');
    return true;
  }
}

/** The authenticated player, or null for an anonymous caller (use with AuthGuard to require one). */
export const CurrentPlayer = createParamDecorator((_data: unknown, ctx: ExecutionContext): Player | null => contextOf(ctx).player);
