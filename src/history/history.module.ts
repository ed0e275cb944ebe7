import { Module } from '@nestjs/common';
import { BoardAtResolver } from './board-at.resolver.js';
import { HistoryRepository } from './history.repository.js';
import { HistoryResolver } from './history.resolver.js';
import { HistoryService } from './history.service.js';
import { RecordController } from './record.controller.js';
import { RecordRepository } from './record.repository.js';
import { RecordService } from './record.service.js';
import { StatsRepository } from './stats.repository.js';
import { StatsResolver } from './stats.resolver.js';
import { StatsService } from './stats.service.js';

/** The read side: match lists, replays, stats and the leaderboard, match records. */
@Module({
  controllers: [RecordController],
  providers: [
    HistoryRepository,
    HistoryService,
    HistoryResolver,
    BoardAtResolver,
    StatsRepository,
    StatsService,
    StatsResolver,
    RecordRepository,
    RecordService,
  ],
})
export class HistoryModule {}
