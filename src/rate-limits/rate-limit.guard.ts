import { applyDecorators, Injectable, SetMetadata, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import { RateLimits, type RateBucket } from './rate-limits.service.js';

const RATE_LIMIT = Symbol('RATE_LIMIT');

/** What this guard reads of a request's context (RequestContext, src/players/auth.ts, has it). */
interface Caller {
  player: { id: string } | null;
  address: string;
}

interface RateLimitRule {
  bucket: RateBucket;
  /** whose budget: the caller's address (before there is a player) or the player's */
  per: 'address' | 'player';
}

/**
 * Spends one point of a budget for each call of the resolver (RATE_LIMITED when none is left), on
 * HTTP and graphql-ws alike. A per-player rule lets an anonymous call through: AuthGuard refuses it.
 */
export function RateLimited(bucket: RateBucket, per: RateLimitRule['per'] = 'player'): MethodDecorator {
  return applyDecorators(SetMetadata(RATE_LIMIT, { bucket, per } satisfies RateLimitRule), UseGuards(RateLimitGuard));
}

@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limits: RateLimits,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.get<RateLimitRule | undefined>(RATE_LIMIT, ctx.getHandler());
    if (!rule) return true;
    const { player, address } = GqlExecutionContext.create(ctx).getContext<Caller>();
    const key = rule.per === 'player' ? player?.id : address;
    if (key) await this.limits.consume(rule.bucket, key);
    return true;
  }
}
