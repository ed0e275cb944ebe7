import { Inject, Injectable, Optional } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { EVENT_BUS, type EventBus, type MatchSignal } from '../realtime/event-bus.js';

/** A signal, or 'resync': signals may have been missed, so read the table again. */
export type FeedListener = (signal: MatchSignal | 'resync') => void;

/** What the signals of this process told a watched player's myTurns feeds, by match id: the newest version. */
interface PlayerNews {
  /** When the player's first feed here began (ms since the epoch): ends before it are not their feeds' news. */
  readonly since: number;
  /** The turns handed to them (the matches where it is their turn, as the last re-check saw them). */
  turns: Map<string, number>;
  /** The ends and rematch offers of their matches (those of late, as the last re-check saw them). */
  ends: Map<string, number>;
}

/** Stored rows read per statement in a catch-up, at most. */
const PAGE = 500;

/**
 * This process's open feeds, by match (matchEvents) and by player (myTurns), with the bus's
 * signals handed to them, and the bounds every feed keeps to.
 */
@Injectable()
export class FeedRegistry {
  private readonly byMatch = new Map<string, Set<FeedListener>>();
  /** Per watched match, the newest event seq a signal announced here (FeedRecheck compares the table with it). */
  private readonly signalledSeq = new Map<string, number>();
  private readonly byPlayer = new Map<string, Set<FeedListener>>();
  /** Per watched player, what signals here told their feeds (FeedRecheck compares the table with it). */
  private readonly announced = new Map<string, PlayerNews>();
  /** Values one subscription may hold for a reader that is behind (WS_SUBSCRIPTION_QUEUE); past it the reader fell behind. */
  readonly maxQueued: number;
  /**
   * Rows a catch-up reads at a time, each page once the reader took the previous one: a long
   * catch-up never fills the bounded queue.
   */
  readonly page: number;
  /** Whether FeedRecheck runs (FEED_RECHECK_MS > 0): only then is what was announced kept. */
  private readonly rechecked: boolean;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(EVENT_BUS) bus: EventBus, @Optional() metrics?: MetricsService) {
    this.maxQueued = config.limits.ws.subscriptionQueue;
    this.rechecked = config.feedRecheckMs > 0;
    metrics?.gauge('dominoes_open_subscriptions', 'GraphQL subscriptions open in this process.', () => this.openFeeds);
    this.page = Math.max(1, Math.min(PAGE, Math.floor(this.maxQueued / 2)));
    // After the current I/O callbacks: a command publishes before it answers, and its answer is
    // written first, so its sender never waits on a fan-out to thousands of sockets. Signals keep
    // their order (setImmediate runs callbacks first in, first out).
    bus.onSignal((signal) => setImmediate(() => this.dispatch(signal)));
    // Signals may have been missed: every open match feed reads what it missed from the table, and
    // every myTurns feed the turns that are its player's now.
    bus.onResync(() => {
      for (const map of [this.byMatch, this.byPlayer]) map.forEach((listeners) => listeners.forEach((l) => l('resync')));
    });
  }

  /** Hands `listener` every signal of this match (`knownSeq`: the newest event the feed knows of); the function returned stops it. */
  watchMatch(matchId: string, listener: FeedListener, knownSeq: number): () => void {
    // What the feed read as it began counts as announced: the recheck looks past it only.
    this.signalledSeq.set(matchId, Math.max(this.signalledSeq.get(matchId) ?? -1, knownSeq));
    return this.add(this.byMatch, matchId, listener);
  }

  /** Hands `listener` every signal that names this player (a turn begins, a match ends or is offered again). */
  watchPlayer(playerId: string, listener: FeedListener): () => void {
    if (this.rechecked && !this.announced.has(playerId)) this.announced.set(playerId, { since: Date.now(), turns: new Map(), ends: new Map() });
    return this.add(this.byPlayer, playerId, listener);
  }

  /**
   * A myTurns feed read these turns of its player as it began (its catch-up): they count as
   * announced, so the re-check hands the feed only what came after, not every turn again.
   */
  turnsKnown(playerId: string, turns: readonly { id: string; version: number }[]): void {
    const announced = this.announced.get(playerId)?.turns;
    // Only for the player's one feed: with another open, a turn lost to that one would be hidden
    // from it too (the announced turns are the player's, not a feed's). Several feeds are read again.
    if (announced && this.byPlayer.get(playerId)?.size === 1)
      for (const t of turns) announced.set(t.id, Math.max(announced.get(t.id) ?? -1, t.version));
  }

  /** Subscriptions open in this process (for the benchmark and health output). */
  get openFeeds(): number {
    let n = 0;
    for (const s of this.byMatch.values()) n += s.size;
    for (const s of this.byPlayer.values()) n += s.size;
    return n;
  }

  /** Feeds of this process watching this match, or this player's turns (a test waits for its feed to start). */
  feedsOf(watched: { matchId: string } | { playerId: string }): number {
    return ('matchId' in watched ? this.byMatch.get(watched.matchId) : this.byPlayer.get(watched.playerId))?.size ?? 0;
  }

  /** The matches some feed of this process watches. */
  watchedMatches(): string[] {
    return [...this.byMatch.keys()];
  }

  /** The players some myTurns feed of this process watches. */
  watchedPlayers(): string[] {
    return [...this.byPlayer.keys()];
  }

  /** When the player's feeds here began to be watched (ms since the epoch), while the re-check runs. */
  watchedSince(playerId: string): number | undefined {
    return this.announced.get(playerId)?.since;
  }

  /**
   * The table says it is this player's turn in these matches, at these versions: the player's
   * feeds are handed each turn no signal here announced (it was lost), as the signal would have
   * been. A feed pushes a match once per version, so a turn it already has costs it one read.
   */
  turnsNow(playerId: string, turns: readonly { matchId: string; version: number; lastSeq: number }[]): void {
    this.handUnannounced(playerId, 'turns', turns, (t) => ({ ...t, turnPlayerId: playerId }));
  }

  /**
   * The table says these matches of the player ended (or offered their rematch) since `since` of
   * the last re-check: the player's feeds are handed each one no signal here announced, as the
   * signal would have been, so a client living on myTurns learns of an end whose signal was lost.
   */
  endsNow(playerId: string, ends: readonly { matchId: string; version: number; lastSeq: number }[]): void {
    this.handUnannounced(playerId, 'ends', ends, (t) => ({ ...t, turnPlayerId: null, endedFor: [playerId] }));
  }

  private handUnannounced(
    playerId: string,
    kind: 'turns' | 'ends',
    found: readonly { matchId: string; version: number; lastSeq: number }[],
    signalOf: (t: { matchId: string; version: number; lastSeq: number }) => MatchSignal,
  ): void {
    const listeners = this.byPlayer.get(playerId);
    const news = this.announced.get(playerId);
    if (!listeners || !news) return;
    // Only what the table shows now is kept, so the map stays as small as the list.
    const now = new Map<string, number>();
    for (const t of found) {
      const known = news[kind].get(t.matchId) ?? -1;
      now.set(t.matchId, Math.max(known, t.version));
      if (known >= t.version) continue;
      const signal = signalOf(t);
      listeners.forEach((l) => l(signal));
    }
    news[kind] = now;
  }

  /**
   * The table holds the match's events up to `lastSeq`: if no signal here announced that far and
   * no feed knew of it as it began (the signal was lost), the match's feeds read the table, as
   * after a resync.
   */
  behind(matchId: string, lastSeq: number): void {
    const listeners = this.byMatch.get(matchId);
    if (!listeners || (this.signalledSeq.get(matchId) ?? -1) >= lastSeq) return;
    this.signalledSeq.set(matchId, lastSeq);
    listeners.forEach((l) => l('resync'));
  }

  private dispatch(signal: MatchSignal): void {
    const listeners = this.byMatch.get(signal.matchId);
    if (listeners) {
      this.signalledSeq.set(signal.matchId, Math.max(this.signalledSeq.get(signal.matchId) ?? -1, signal.lastSeq));
      listeners.forEach((l) => l(signal));
    }
    const players = new Set(signal.endedFor);
    if (signal.turnPlayerId) players.add(signal.turnPlayerId);
    for (const id of players) this.byPlayer.get(id)?.forEach((l) => l(signal));
    const turns = signal.turnPlayerId ? this.announced.get(signal.turnPlayerId)?.turns : undefined;
    if (turns) turns.set(signal.matchId, Math.max(turns.get(signal.matchId) ?? -1, signal.version));
    for (const id of signal.endedFor ?? []) {
      const news = this.announced.get(id);
      if (!news) continue;
      // A match that ended is no one's turn any more: its entry goes (the re-check would drop it too).
      news.turns.delete(signal.matchId);
      news.ends.set(signal.matchId, Math.max(news.ends.get(signal.matchId) ?? -1, signal.version));
    }
  }

  private add(map: Map<string, Set<FeedListener>>, key: string, l: FeedListener): () => void {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(l);
    return () => {
      const current = map.get(key);
      current?.delete(l);
      if (current?.size !== 0) return;
      map.delete(key);
      if (map === this.byMatch) this.signalledSeq.delete(key);
      else this.announced.delete(key);
    };
  }
}
