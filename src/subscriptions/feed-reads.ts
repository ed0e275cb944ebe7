import { Inject, Injectable } from '@nestjs/common';
import pLimit, { type LimitFunction } from 'p-limit';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import type { LoadedMatch } from '../matches/loaded-match.js';
import { MatchCache } from '../matches/match-cache.js';
import { MatchesRepository } from '../matches/matches.repository.js';

/**
 * The feeds' reads of match records: from the cache when it is fresh enough, else from the
 * database, one read shared by every feed of this process that asks for the same thing at once
 * (one signal wakes every subscriber of a match).
 *
 * Feeds read at most half the pool's connections at a time (`concurrency`). A resync makes every
 * open feed of the process read at once, and a reconnect wave every catch-up: thousands of reads
 * that would otherwise fill the pool's queue, where players' commands wait behind them. Here they
 * wait their turn in this process instead, in order, and commands keep the other half.
 */
@Injectable()
export class FeedReads {
  private readonly inflight = new Map<string, Promise<unknown>>();
  private readonly limit: LimitFunction;

  constructor(
    readonly repo: MatchesRepository,
    readonly cache: MatchCache,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limit = pLimit(Math.max(1, Math.floor(config.dbPoolSize / 2)));
  }

  /** Database reads the feeds may have in flight at once. */
  get concurrency(): number {
    return this.limit.concurrency;
  }

  /** `read`, or the same read already in flight under `key`. */
  shared<T>(key: string, read: () => Promise<T>): Promise<T> {
    const inflight = this.inflight.get(key) as Promise<T> | undefined;
    if (inflight) return inflight;
    const p = this.limit(read).finally(() => this.inflight.delete(key));
    this.inflight.set(key, p);
    return p;
  }

  /** The match at `version` or later: the cache when it is that fresh, else one shared read. */
  async latest(matchId: string, version: number): Promise<LoadedMatch | null> {
    const cached = this.cache.get(matchId);
    if (cached && cached.version >= version) return cached;
    const record = await this.shared(`m:${matchId}:v${version}`, () => this.repo.find(matchId));
    return record && record.version >= version ? record : null;
  }

  /** These matches at these versions or later, in the order asked: from the cache when it is that fresh, the rest in one read. */
  async freshest(wanted: readonly { id: string; version: number }[]): Promise<LoadedMatch[]> {
    const cached = wanted.map((w) => this.cache.get(w.id)).map((c, i) => (c && c.version >= wanted[i].version ? c : null));
    const missing = wanted.filter((_, i) => !cached[i]).map((w) => w.id);
    const read = new Map((missing.length > 0 ? await this.limit(() => this.repo.findMany(missing)) : []).map((r) => [r.id, r]));
    return wanted.map((w, i) => cached[i] ?? read.get(w.id)).filter((r): r is LoadedMatch => r !== undefined);
  }
}
