import { Global, Module } from '@nestjs/common';
import { RateLimitGuard } from './rate-limit.guard.js';
import { RateLimits } from './rate-limits.service.js';

/** Rate limits for every transport: the HTTP hook, the GraphQL context, graphql-ws and resolvers share one RateLimits. */
@Global()
@Module({ providers: [RateLimits, RateLimitGuard], exports: [RateLimits, RateLimitGuard] })
export class RateLimitsModule {}
