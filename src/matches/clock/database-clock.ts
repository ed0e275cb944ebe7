import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Prisma } from '../../../generated/prisma/client.js';
import { PrismaService } from '../../database/prisma.service.js';
import type { Clock } from './clock.js';

/** One reading of the database's clock: this process's time when it was asked and answered, and its answer. */
export interface ClockSample {
  sentAt: number;
  dbMs: number;
  receivedAt: number;
}

/**
 * How far the database's clock is ahead of this process's, from the sample with the shortest
 * round trip: its answer is taken at the trip's midpoint, so the error is under half that trip.
 */
export function offsetFrom(samples: readonly ClockSample[]): number {
  const best = samples.reduce((a, b) => (b.receivedAt - b.sentAt < a.receivedAt - a.sentAt ? b : a));
  return best.dbMs - (best.sentAt + best.receivedAt) / 2;
}

const SAMPLES = 3;
const SYNC_EVERY_MS = 60_000;

/**
 * The time every instance agrees on: the database's. A deadline is written by the instance that
 * commits the move starting the turn and enforced by whichever instance's sweeper claims it; on
 * their own system clocks, an instance whose clock ran ahead would time players out early (and one
 * behind, late), by the skew. So each instance reads PostgreSQL's clock at start and every minute
 * and runs its clock at the offset measured. Only the game's time goes by it (deadlines, timeouts,
 * the clock's sweeps); logs and webhook signatures keep the system's clock, which is what their
 * readers compare against.
 */
@Injectable()
export class DatabaseClock implements Clock, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(DatabaseClock.name);
  private offsetMs = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly prisma: PrismaService) {}

  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** The offset in use (ms the database's clock is ahead of this process's). */
  get offset(): number {
    return this.offsetMs;
  }

  /** Synced before the sweepers start (at bootstrap); a database away at that moment leaves the host's clock until the next sync. */
  async onModuleInit(): Promise<void> {
    await this.trySync();
    this.timer = setInterval(() => void this.trySync(), SYNC_EVERY_MS);
    this.timer.unref();
  }

  private async trySync(): Promise<void> {
    try {
      await this.sync();
    } catch (e) {
      this.logger.warn(`clock sync with the database failed, the last offset stays: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async sync(): Promise<void> {
    const samples: ClockSample[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const sentAt = Date.now();
      const [row] = await this.prisma.background<{ ms: number }>(Prisma.sql`SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS "ms"`);
      samples.push({ sentAt, dbMs: row.ms, receivedAt: Date.now() });
    }
    // Whole milliseconds, as the database stores times: a deadline kept in the state must read back equal.
    const offset = Math.round(offsetFrom(samples));
    if (Math.abs(offset - this.offsetMs) > 1000)
      this.logger.warn(`this process's clock is ${Math.round(-offset)} ms off the database's: the game's time follows the database`);
    this.offsetMs = offset;
  }
}
