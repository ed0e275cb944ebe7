import { Inject, Injectable } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '../realtime/event-bus.js';
import type { MatchRecord } from './match-record.js';

const MAX_ENTRIES = 10_000;

/**
 * The latest known state of recently used matches, so a move costs one SQL statement (the
 * compare-and-set commit) instead of three. Safe for commands: a stale entry only makes the
 * commit's version check fail, and the command then re-reads from the database. Entries are
 * replaced after every commit made here and dropped when a signal says another instance moved a
 * match on (PUBSUB=postgres), so reads lag another instance's commit only by the signal's latency.
 */
@Injectable()
export class MatchCache {
  private readonly entries = new Map<string, MatchRecord>();

  constructor(@Inject(EVENT_BUS) bus: EventBus) {
    bus.onSignal((s) => {
      const cached = this.entries.get(s.matchId);
      if (cached && cached.version < s.version) this.entries.delete(s.matchId);
    });
  }

  get(id: string): MatchRecord | undefined {
    return this.entries.get(id);
  }

  set(record: MatchRecord): void {
    const cached = this.entries.get(record.id);
    if (cached && cached.version > record.version) return; // never go back in time
    this.entries.delete(record.id); // re-insert: Map order is recency order
    this.entries.set(record.id, record);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }

  forget(id: string): void {
    this.entries.delete(id);
  }
}
