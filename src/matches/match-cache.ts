import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { EVENT_BUS, type EventBus } from '../realtime/event-bus.js';
import type { LoadedMatch } from './loaded-match.js';

const MAX_ENTRIES = 10_000;

/**
 * The latest known state of recently used matches, so a move costs one SQL statement (the
 * compare-and-set commit) instead of three. Safe for commands: a stale entry only makes the
 * commit's version check fail, and the command then re-reads from the database. Entries are
 * replaced after every commit made here and dropped when a signal says another instance moved a
 * match on (PUBSUB=postgres), so reads lag another instance's commit only by the signal's latency.
 * Two backstops for a signal that never came: everything is forgotten when the transport says
 * signals may have been missed (a LISTEN reconnect), and an entry serves reads for at most
 * MATCH_CACHE_TTL_MS after it was read or written.
 */
@Injectable()
export class MatchCache {
  private readonly entries = new Map<string, { loaded: LoadedMatch; at: number }>();
  /**
   * Per match, the newest version a signal announced that no entry here has reached yet. Another
   * instance's later commit can be signalled here while this process's own older commit is still
   * on its way back from PostgreSQL; caching that one afterwards would serve reads a command
   * behind until the next signal or the TTL. Kept across a resync: a version once committed stays
   * a lower bound.
   */
  private readonly announced = new Map<string, number>();
  private readonly ttlMs: number;

  constructor(@Inject(EVENT_BUS) bus: EventBus, @Inject(APP_CONFIG) config: AppConfig) {
    this.ttlMs = config.matchCacheTtlMs;
    bus.onSignal((s) => {
      const cached = this.entries.get(s.matchId);
      if (cached && cached.loaded.version >= s.version) return;
      this.entries.delete(s.matchId);
      if ((this.announced.get(s.matchId) ?? -1) >= s.version) return;
      this.announced.delete(s.matchId); // re-insert: Map order is recency order
      this.announced.set(s.matchId, s.version);
      if (this.announced.size > MAX_ENTRIES) this.announced.delete(this.announced.keys().next().value!);
    });
    bus.onResync(() => this.entries.clear());
  }

  get(id: string): LoadedMatch | undefined {
    const cached = this.entries.get(id);
    if (cached && Date.now() - cached.at > this.ttlMs) {
      this.entries.delete(id);
      return undefined;
    }
    return cached?.loaded;
  }

  /** Keeps `loaded` unless something newer is cached or has been announced. */
  set(loaded: LoadedMatch): void {
    const cached = this.entries.get(loaded.id);
    if (cached && cached.loaded.version > loaded.version) return; // never go back in time
    const announced = this.announced.get(loaded.id);
    if (announced !== undefined) {
      if (loaded.version < announced) return; // older than a commit already signalled
      this.announced.delete(loaded.id);
    }
    this.entries.delete(loaded.id); // re-insert: Map order is the order of `at`
    const now = Date.now();
    this.entries.set(loaded.id, { loaded, at: now });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.dropExpired(now);
  }

  /**
   * An expired entry serves no read, so it is dropped from the oldest end as new ones come:
   * otherwise every match used in the last MAX_ENTRIES commits (finished ones included) would
   * stay in memory, some 16 KB each.
   */
  private dropExpired(now: number): void {
    for (const [id, entry] of this.entries) {
      if (now - entry.at <= this.ttlMs) return;
      this.entries.delete(id);
    }
  }

  /** Matches held (for tests). */
  get size(): number {
    return this.entries.size;
  }

  forget(id: string): void {
    this.entries.delete(id);
  }
}
