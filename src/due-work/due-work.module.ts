import { Global, Module } from '@nestjs/common';
import { DueWorkSweeper } from './due-work.sweeper.js';

/** Work that falls due, on whichever instance is alive: feature modules register their kinds. */
@Global()
@Module({ providers: [DueWorkSweeper], exports: [DueWorkSweeper] })
export class DueWorkModule {}
