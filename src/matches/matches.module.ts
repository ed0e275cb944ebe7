import { Module } from '@nestjs/common';
import { StatsWriter } from './stats/stats.writer.js';
import { CommitContributions } from './commit-contributions.js';
import { PlayersModule } from '../players/players.module.js';
import { RealtimeModule } from '../realtime/realtime.module.js';
import { BotsService } from './bots.service.js';
import { BOT_MOVER } from './bot-workers/bot-mover.js';
import { WorkerPoolBotMover } from './bot-workers/worker-pool.js';
import { CLOCK } from './clock/clock.js';
import { DatabaseClock } from './clock/database-clock.js';
import { SeatClockResolver, ToMoveResolver } from './clock/clock.resolver.js';
import { ClockRepository } from './clock/clock.repository.js';
import { ClockService } from './clock/clock.service.js';
import { CommandRunner } from './command-runner.js';
import { commitListeners } from './commit-listeners.js';
import { MatchCache } from './match-cache.js';
import { MatchesRepository } from './matches.repository.js';
import { MatchesResolver } from './matches.resolver.js';
import { MatchesService } from './matches.service.js';
import { RoundsBudget } from './rounds-budget.js';
import { RoundsService } from './rounds.service.js';
import { MatchEndingResolver } from './match-ending.resolver.js';
import { MatchEndingsRepository } from './match-endings.repository.js';
import { MatchmakingRepository } from './matchmaking.repository.js';
import { MatchmakingResolver } from './matchmaking.resolver.js';
import { MatchmakingService } from './matchmaking.service.js';
import { NextDealResolver } from './next-deal.resolver.js';
import { PendingDealChains } from './pending-deal-chains.js';
import { OpenMatchExpiry } from './open-match-expiry.js';

@Module({
  imports: [PlayersModule, RealtimeModule],
  providers: [
    StatsWriter,
    CommitContributions,
    MatchCache,
    MatchesRepository,
    CommandRunner,
    MatchesService,
    RoundsService,
    MatchEndingsRepository,
    MatchEndingResolver,
    RoundsBudget,
    BotsService,
    MatchesResolver,
    // Finding opponents and rematches
    MatchmakingRepository,
    MatchmakingService,
    MatchmakingResolver,
    PendingDealChains,
    NextDealResolver,
    OpenMatchExpiry,
    { provide: BOT_MOVER, useClass: WorkerPoolBotMover },
    // Told after every commit, in this order: add a listener here.
    commitListeners(BotsService),
    // Clocks: the injected time (the database's, src/matches/clock/database-clock.ts), the timeout sweeper's kind, the to-move list.
    DatabaseClock,
    { provide: CLOCK, useExisting: DatabaseClock },
    ClockRepository,
    ClockService,
    SeatClockResolver,
    ToMoveResolver,
  ],
  exports: [CommitContributions, MatchesService, MatchesRepository, MatchCache, BotsService, RoundsService],
})
export class MatchesModule {}
