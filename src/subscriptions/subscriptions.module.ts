import { Module } from '@nestjs/common';
import { MatchesModule } from '../matches/matches.module.js';
import { FeedReads } from './feed-reads.js';
import { FeedRecheck } from './feed-recheck.js';
import { FeedRegistry } from './feed-registry.js';
import { MatchFeedService } from './match-feed.service.js';
import { MyTurnsFeed } from './my-turns-feed.service.js';
import { SubscriptionsResolver } from './subscriptions.resolver.js';
import { TurnsRepository } from './turns.repository.js';

@Module({
  imports: [MatchesModule],
  providers: [FeedRegistry, FeedRecheck, FeedReads, MatchFeedService, MyTurnsFeed, SubscriptionsResolver, TurnsRepository],
  exports: [FeedRegistry],
})
export class SubscriptionsModule {}
