import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { redactMove } from '../domain/index.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import type { EventWithMove, LoadedMatch } from '../matches/loaded-match.js';
import { matchModel, moveModel, seatOf } from '../matches/match-view.js';
import { MatchCache } from '../matches/match-cache.js';
import { MatchesRepository } from '../matches/matches.repository.js';
import { assertMatchId } from '../matches/command-runner.js';
import type { MatchEventType } from '../matches/models/enums.js';
import type { Match, MatchEvent } from '../matches/models/match.model.js';
import type { Player } from '../players/models/player.model.js';
import { EVENT_BUS, type EventBus, type MatchSignal } from '../realtime/event-bus.js';
import { PushIterator } from './push-iterator.js';
import { TurnsRepository } from './turns.repository.js';
import { ViewPayloads } from './view-payloads.js';

/** A signal, or 'resync': signals may have been missed, so read the table again. */
type Listener = (signal: MatchSignal | 'resync') => void;

/** Stored events read per statement in a catch-up. */
const PAGE = 500;
/** Ended matches a myTurns feed remembers the pushed version of (see `push` in myTurns). */
const RECENTLY_ENDED = 64;

/**
 * Per-process fan-out of match signals to subscriptions. A subscriber never trusts the signal's
 * content for ordering: it reads every stored event after the last seq it delivered, so a
 * reconnect with `afterSeq`, a missed signal or a second instance all give the same gap-free,
 * duplicate-free sequence. Reads triggered by one signal are shared by every subscriber of the
 * match in this process.
 */
@Injectable()
export class MatchFeedService {
  private readonly logger = new Logger(MatchFeedService.name);
  private readonly byMatch = new Map<string, Set<Listener>>();
  private readonly byPlayer = new Map<string, Set<Listener>>();
  private readonly reads = new Map<string, Promise<unknown>>();
  private readonly views = new ViewPayloads();
  /** Values one subscription may hold for a reader that is behind (WS_SUBSCRIPTION_QUEUE); `fellBehind` is called past it. */
  private readonly maxQueued: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(EVENT_BUS) bus: EventBus,
    private readonly repo: MatchesRepository,
    private readonly cache: MatchCache,
    private readonly turns: TurnsRepository,
  ) {
    this.maxQueued = config.limits.ws.subscriptionQueue;
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

  private dispatch(signal: MatchSignal): void {
    this.byMatch.get(signal.matchId)?.forEach((l) => l(signal));
    const players = new Set(signal.endedFor);
    if (signal.turnPlayerId) players.add(signal.turnPlayerId);
    for (const id of players) this.byPlayer.get(id)?.forEach((l) => l(signal));
  }

  /**
   * Every stored event after `afterSeq` (none when null: live only), then live ones. Once the match
   * is over (FINISHED or ABANDONED) and its last event has been sent, the subscription completes.
   */
  async matchEvents(
    matchId: string,
    afterSeq: number | null,
    viewer: Player | null,
    fellBehind: () => void = () => {},
  ): Promise<AsyncIterableIterator<{ matchEvents: MatchEvent }>> {
    assertMatchId(matchId);
    if (afterSeq !== null && (!Number.isInteger(afterSeq) || afterSeq < 0))
      throw new ApiError('BAD_USER_INPUT', 'afterSeq must be a whole number ≥ 0');
    // Thousands subscribe to one match at once (a reconnect wave): the cache or one shared read.
    const cached = this.cache.get(matchId);
    const record = cached ?? (await this.shared(`f:${matchId}`, () => this.repo.find(matchId)));
    if (!record) throw new ApiError('NOT_FOUND', `no match ${matchId}`);
    let delivered = afterSeq ?? record.lastEventSeq;
    // The newest record seen: once it is over and everything it holds was sent, nothing can follow.
    let known = record;
    let pulling = false;
    let again = false;
    // The newest seq known to exist: the record's at subscribe, then every signal's. A commit's
    // events from the cache are everything up to that commit, not always everything committed:
    // another instance's commit can be signalled here just before this process caches its own
    // older one (the signal clears the cache first). A pull from a commit stops once it reached this.
    let signalled = record.lastEventSeq;
    // For the same reason a catch-up reads the table first, and so does the pull after a resync.
    let tableWanted = 1;
    let tableRead = afterSeq === null ? 1 : 0;
    const out = new PushIterator<{ matchEvents: MatchEvent }>(() => this.remove(this.byMatch, matchId, listener), this.maxQueued, fellBehind);
    // A long catch-up is read a page at a time, each once the reader took the previous one, so
    // it never fills the bounded queue; live events (a few per command) are pushed as they come.
    const page = Math.max(1, Math.min(PAGE, Math.floor(this.maxQueued / 2)));
    // Pull everything after `delivered`; signals arriving mid-pull trigger one more pull.
    const pull = async (): Promise<void> => {
      if (pulling) {
        again = true;
        return;
      }
      pulling = true;
      try {
        do {
          again = false;
          for (;;) {
            if (out.ended) return;
            // A commit made here left its events on the cached record: delivered without a read
            // and without a pause, so every subscriber of the match gets it in one synchronous pass.
            const fromCommit = tableRead < tableWanted ? null : this.committedAfter(matchId, delivered, page);
            let events = fromCommit;
            if (!events) {
              const wanted = tableWanted;
              events = await this.shared(`e:${matchId}:${delivered}:${page}`, () => this.repo.eventsAfter(matchId, delivered, page));
              tableRead = wanted;
            }
            if (events.length === 0) break;
            const upTo = events.at(-1)!.seq;
            // The commit that signalled usually left the record in the cache: no second read.
            const cached = this.cache.get(matchId);
            const latest = cached && cached.lastEventSeq >= upTo ? cached : await this.shared(`m:${matchId}:${upTo}`, () => this.repo.find(matchId));
            if (latest!.lastEventSeq >= known.lastEventSeq) known = latest!;
            // One view of the match per batch, built once for every subscriber with the same view.
            for (const p of this.views.batch(latest!, viewer, events, (e, match) => this.eventModel(e, match))) out.push(p);
            delivered = upTo;
            signalled = Math.max(signalled, upTo);
            // A short page from the table was everything committed when it was read; a commit's
            // events are, once they reach the newest seq signalled (else the table is read next).
            // A later commit signals again.
            if (fromCommit ? delivered >= signalled : events.length < page) break;
            await out.drained();
          }
        } while (again);
        if ((known.status === 'FINISHED' || known.status === 'ABANDONED') && delivered >= known.lastEventSeq) out.complete();
      } catch (e) {
        this.logger.error(e);
        out.fail(e);
      } finally {
        pulling = false;
      }
    };
    const listener: Listener = (s) => {
      if (s === 'resync') tableWanted++;
      else signalled = Math.max(signalled, s.lastSeq);
      if (s === 'resync' || s.lastSeq > delivered) void pull();
    };
    this.add(this.byMatch, matchId, listener);
    // Live only, from a record taken in this same tick: any later commit signals the listener, so
    // there is nothing to read yet (after an await, a commit may have slipped in: read).
    const over = record.status === 'FINISHED' || record.status === 'ABANDONED';
    if (!(cached && afterSeq === null && !over)) void pull();
    return out;
  }

  /**
   * The caller's matches where it is their turn: first every one where it is their turn now (a
   * turn that began before the subscription is not lost), then each time a turn begins, and once
   * more when a match of theirs ends (status FINISHED or ABANDONED), so a client living on this
   * feed alone learns that a match is over whoever ended it (a resignation, a bot's winning play),
   * and again when its rematch is offered (its matchEvents feed has completed by then).
   * Work is done in signal order per subscription, and a match is never pushed twice at the same
   * version, so the catch-up and a signal racing it give one push.
   */
  myTurns(player: Player, fellBehind: () => void = () => {}): AsyncIterableIterator<{ myTurns: Match }> {
    const out = new PushIterator<{ myTurns: Match }>(() => this.remove(this.byPlayer, player.id, listener), this.maxQueued, fellBehind);
    // Match id → version last pushed, while the match is live; the ended ones of late go on in
    // a short list, so an end and its rematch offer read late are never pushed twice at one
    // version, while a feed that lives for days holds no entry for every match it ever saw.
    const pushedAt = new Map<string, number>();
    const endedAt = new Map<string, number>();
    const push = (record: LoadedMatch): void => {
      if ((pushedAt.get(record.id) ?? endedAt.get(record.id) ?? -1) >= record.version) return;
      if (record.status === 'FINISHED' || record.status === 'ABANDONED') {
        pushedAt.delete(record.id);
        endedAt.delete(record.id); // re-insert: Map order is recency order
        endedAt.set(record.id, record.version);
        if (endedAt.size > RECENTLY_ENDED) endedAt.delete(endedAt.keys().next().value!);
      } else pushedAt.set(record.id, record.version);
      out.push({ myTurns: matchModel(record, player) });
    };
    const isMyTurn = (r: LoadedMatch) => r.status === 'IN_PROGRESS' && r.state !== null && seatOf(r, player.id) === r.state.round.turn;
    // Every match where it is the caller's turn, at the reader's pace: a player may have thousands,
    // so a page is read only once the reader took the previous one (the queue never overflows),
    // and nothing more is read once the subscription is gone.
    const page = Math.max(1, Math.min(PAGE, Math.floor(this.maxQueued / 2)));
    const catchUp = async (): Promise<void> => {
      const turns = await this.turns.turnsOf(player.id);
      for (let i = 0; i < turns.length && !out.ended; i += page) {
        for (const record of await this.freshest(turns.slice(i, i + page))) if (isMyTurn(record)) push(record);
        await out.drained();
      }
    };
    let queue: Promise<void> = catchUp();
    const listener: Listener = (s) => {
      // Signals may have been missed (the transport reconnected): every turn that is the caller's
      // now is pushed again, unless it was already pushed at that version.
      if (s === 'resync') {
        queue = queue.then(catchUp).catch((e: unknown) => this.logger.error(e));
        return;
      }
      queue = queue
        .then(async () => {
          const record = await this.latest(s.matchId, s.version);
          if (!record) return;
          const ended = s.endedFor?.includes(player.id) && (record.status === 'FINISHED' || record.status === 'ABANDONED');
          // A turn only if it is still the caller's when read (a fast opponent may be ahead).
          if (ended || (s.turnPlayerId === player.id && isMyTurn(record))) push(record);
        })
        .catch((e: unknown) => this.logger.error(e));
    };
    queue = queue.catch((e: unknown) => {
      this.logger.error(e);
      out.fail(e);
    });
    this.add(this.byPlayer, player.id, listener);
    return out;
  }

  /** Subscriptions open in this process (for the benchmark and health output). */
  get openFeeds(): number {
    let n = 0;
    for (const s of this.byMatch.values()) n += s.size;
    for (const s of this.byPlayer.values()) n += s.size;
    return n;
  }

  /**
   * The events after `afterSeq` from the cached record's own commit, when that commit holds all of
   * them (it began at or before afterSeq + 1); else null, and the feed reads the table.
   */
  private committedAfter(matchId: string, afterSeq: number, limit: number): readonly EventWithMove[] | null {
    const record = this.cache.get(matchId);
    const events = record?.committedEvents;
    if (!events?.length || events[0].seq > afterSeq + 1 || record!.lastEventSeq <= afterSeq) return null;
    return events.filter((e) => e.seq > afterSeq).slice(0, limit);
  }

  /** These matches at these versions or later: from the cache when it is that fresh, the rest in one read. */
  private async freshest(wanted: readonly { id: string; version: number }[]): Promise<LoadedMatch[]> {
    const cached = wanted.map((w) => this.cache.get(w.id)).map((c, i) => (c && c.version >= wanted[i].version ? c : null));
    const missing = wanted.filter((_, i) => !cached[i]).map((w) => w.id);
    const read = new Map((missing.length > 0 ? await this.repo.findMany(missing) : []).map((r) => [r.id, r]));
    // In the order asked (the player's matches, oldest first).
    return wanted.map((w, i) => cached[i] ?? read.get(w.id)).filter((r): r is LoadedMatch => r !== undefined);
  }

  /** The match at `version` or later: the cache when it is that fresh, else one shared read. */
  private async latest(matchId: string, version: number): Promise<LoadedMatch | null> {
    const cached = this.cache.get(matchId);
    if (cached && cached.version >= version) return cached;
    const record = await this.shared(`m:${matchId}:v${version}`, () => this.repo.find(matchId));
    return record && record.version >= version ? record : null;
  }

  private eventModel(e: EventWithMove, match: Match): MatchEvent {
    // An event shows its move as it was when it happened, in a live round: another seat's draw
    // never shows its tile, in the live feed or in a catch-up (the round's moves show it later).
    const move = e.move ? moveModel(redactMove(e.move, match.mySeat, false), e.timedOut ?? false) : null;
    return { seq: e.seq, type: e.type, kind: e.type as MatchEventType, move, seat: e.seat ?? null, match };
  }

  private shared<T>(key: string, read: () => Promise<T>): Promise<T> {
    const inflight = this.reads.get(key) as Promise<T> | undefined;
    if (inflight) return inflight;
    const p = read().finally(() => this.reads.delete(key));
    this.reads.set(key, p);
    return p;
  }

  private add(map: Map<string, Set<Listener>>, key: string, l: Listener): void {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(l);
  }

  private remove(map: Map<string, Set<Listener>>, key: string, l: Listener): void {
    const set = map.get(key);
    set?.delete(l);
    if (set?.size === 0) map.delete(key);
  }
}
