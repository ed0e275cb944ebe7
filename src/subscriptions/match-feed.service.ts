import { Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { redactMove } from '../domain/index.js';
import type { EventWithMove } from '../matches/loaded-match.js';
import { moveModel } from '../matches/match-view.js';
import { matchIdOf } from '../matches/command-runner.js';
import type { MatchEventType } from '../matches/models/enums.js';
import type { Match, MatchEvent } from '../matches/models/match.model.js';
import type { Player } from '../players/models/player.model.js';
import { FeedReads } from './feed-reads.js';
import { FeedRegistry, type FeedListener } from './feed-registry.js';
import { PushIterator } from './push-iterator.js';
import { ViewPayloads } from './view-payloads.js';

/**
 * matchEvents: per-process fan-out of a match's events to its subscriptions. A subscriber never
 * trusts the signal's content for ordering: it reads every stored event after the last seq it
 * delivered, so a reconnect with `afterSeq`, a missed signal or a second instance all give the
 * same gap-free, duplicate-free sequence. Reads triggered by one signal are shared by every
 * subscriber of the match in this process (FeedReads).
 */
@Injectable()
export class MatchFeedService {
  private readonly logger = new Logger(MatchFeedService.name);
  private readonly views = new ViewPayloads();

  constructor(
    private readonly registry: FeedRegistry,
    private readonly reads: FeedReads,
  ) {}

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
    matchId = matchIdOf(matchId);
    if (afterSeq !== null && (!Number.isInteger(afterSeq) || afterSeq < 0))
      throw new ApiError('BAD_USER_INPUT', 'afterSeq must be a whole number ≥ 0');
    // Thousands subscribe to one match at once (a reconnect wave): the cache or one shared read.
    const { cache, repo } = this.reads;
    let cached = cache.get(matchId);
    let record = cached ?? (await this.reads.shared(`f:${matchId}`, () => repo.find(matchId)));
    // A seq past the record's may be a commit newer than the cache or the shared read: the table decides.
    if (record && afterSeq !== null && afterSeq > record.lastEventSeq) {
      cached = undefined;
      record = await repo.find(matchId);
    }
    if (!record) throw new ApiError('NOT_FOUND', `no match ${matchId}`);
    // A seq this match never had (another match's, or from a client's mix-up) would wait for
    // events that may never come: the client is told.
    if (afterSeq !== null && afterSeq > record.lastEventSeq)
      throw new ApiError('BAD_USER_INPUT', `afterSeq ${afterSeq} is past the match's last event (${record.lastEventSeq})`, {
        field: 'afterSeq',
        lastSeq: record.lastEventSeq,
      });
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
    let stop = () => {};
    const out = new PushIterator<{ matchEvents: MatchEvent }>(() => stop(), this.registry.maxQueued, fellBehind);
    // A long catch-up is read a page at a time, each once the reader took the previous one, so
    // it never fills the bounded queue; live events (a few per command) are pushed as they come.
    const page = this.registry.page;
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
              events = await this.reads.shared(`e:${matchId}:${delivered}:${page}`, () => repo.eventsAfter(matchId, delivered, page));
              tableRead = wanted;
            }
            if (events.length === 0) break;
            const upTo = events.at(-1)!.seq;
            // The commit that signalled usually left the record in the cache: no second read.
            const cached = cache.get(matchId);
            let latest = cached && cached.lastEventSeq >= upTo ? cached : await this.reads.shared(`m:${matchId}:${upTo}`, () => repo.find(matchId));
            // A match that stood still since the last page is the same view: built once, and one
            // budget of resolved rounds (RoundsBudget.spendInView) for the whole catch-up.
            if (latest!.version === known.version) latest = known;
            else if (latest!.lastEventSeq >= known.lastEventSeq) known = latest!;
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
    const listener: FeedListener = (s) => {
      if (s === 'resync') tableWanted++;
      else signalled = Math.max(signalled, s.lastSeq);
      if (s === 'resync' || s.lastSeq > delivered) void pull();
    };
    stop = this.registry.watchMatch(matchId, listener, record.lastEventSeq);
    // Live only, from a record taken in this same tick: any later commit signals the listener, so
    // there is nothing to read yet (after an await, a commit may have slipped in: read).
    const over = record.status === 'FINISHED' || record.status === 'ABANDONED';
    if (!(cached && afterSeq === null && !over)) void pull();
    return out;
  }

  /**
   * The events after `afterSeq` from the cached record's own commit, when that commit holds all of
   * them (it began at or before afterSeq + 1); else null, and the feed reads the table.
   */
  private committedAfter(matchId: string, afterSeq: number, limit: number): readonly EventWithMove[] | null {
    const record = this.reads.cache.get(matchId);
    const events = record?.committedEvents;
    if (!events?.length || events[0].seq > afterSeq + 1 || record!.lastEventSeq <= afterSeq) return null;
    return events.filter((e) => e.seq > afterSeq).slice(0, limit);
  }

  private eventModel(e: EventWithMove, match: Match): MatchEvent {
    // An event shows its move as it was when it happened, in a live round: another seat's draw
    // never shows its tile, in the live feed or in a catch-up (the round's moves show it later).
    const move = e.move ? moveModel(redactMove(e.move, match.mySeat, false), e.timedOut ?? false) : null;
    return { seq: e.seq, type: e.type, kind: e.type as MatchEventType, move, seat: e.seat ?? null, match };
  }
}
