import { Module } from '@nestjs/common';
import { MatchesModule } from '../matches/matches.module.js';
import { MatchFeedService } from './match-feed.service.js';
import { SubscriptionsResolver } from './subscriptions.resolver.js';

@Module({ imports: [MatchesModule], providers: [MatchFeedService, SubscriptionsResolver], exports: [MatchFeedService] })
export class SubscriptionsModule {}
