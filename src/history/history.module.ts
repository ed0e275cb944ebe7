import { Module } from '@nestjs/common';
import { HistoryRepository } from './history.repository.js';
import { HistoryResolver } from './history.resolver.js';
import { HistoryService } from './history.service.js';

@Module({ providers: [HistoryRepository, HistoryService, HistoryResolver] })
export class HistoryModule {}
