import { Module } from '@nestjs/common';
import { MatchesModule } from '../matches/matches.module.js';
import { MatchFeedService } from './match-feed.service.js';
import { SubscriptionsResolver } from './subscriptions.resolver.js';
import { TurnsRepository } from './turns.repository.js';

@Module({ imports: [MatchesModule], providers: [MatchFeedService, SubscriptionsResolver, TurnsRepository], exports: [MatchFeedService] })
export class SubscriptionsModule {}
