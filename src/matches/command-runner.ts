import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ApiError } from '../common/api-error.js';
import { OneAtATime } from '../common/one-at-a-time.js';
import type { MoveRecord } from '../domain/index.js';
import { canonicalId } from '../common/ids.js';
import { EVENT_BUS, type EventBus } from '../realtime/event-bus.js';
import { CLOCK, type Clock } from './clock/clock.js';
import { clockUpdate } from './clock/clock-commit.js';
import { COMMIT_LISTENERS, type CommitListener } from './commit-listeners.js';
import { VersionConflict, type Commit, type EventWithMove, type LoadedMatch, type StoredEvent } from './loaded-match.js';
import { MatchCache } from './match-cache.js';
import { MatchesRepository, type NewMatch } from './matches.repository.js';

/** A command re-reads and re-decides at most this often when others commit first. */
const MAX_ATTEMPTS = 5;

/** The match id as stored (see canonicalId), or BAD_USER_INPUT. */
export function matchIdOf(id: string): string {
  return canonicalId(id, 'match');
}

/** What a command decided, given a fresh read of the match. */
export type Decision = { commit: Commit } | { unchanged: true; reread?: boolean };

/**
 * How every command runs, whoever decides it (a player's mutation or a bot): load the match →
 * decide → one compare-and-set commit → announce on the event bus → tell the commit listeners.
 * The deciding lives in the decide-* functions that MatchesService wires; this is the part they
 * all share, with the cache of latest match loaded matches it keeps current.
 */
@Injectable()
export class CommandRunner implements OnModuleInit {
  private readonly logger = new Logger(CommandRunner.name);
  /** Read once the module is up: the listeners (BotsService…) themselves run commands through here. */
  private listeners: readonly CommitListener[] = [];
  /** This process's commands on one match, in turn (see run). */
  private readonly perMatch = new OneAtATime();

  constructor(
    private readonly repo: MatchesRepository,
    private readonly cache: MatchCache,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly moduleRef: ModuleRef,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.listeners = this.moduleRef.get<CommitListener[]>(COMMIT_LISTENERS);
  }

  /** The latest loaded state of a match (the cache, else the database), or null. */
  async find(given: string): Promise<LoadedMatch | null> {
    const id = matchIdOf(given);
    return this.cache.get(id) ?? (await this.read(id));
  }

  async load(given: string, fresh = false): Promise<LoadedMatch> {
    const id = matchIdOf(given);
    const loaded = (fresh ? undefined : this.cache.get(id)) ?? (await this.read(id));
    if (!loaded) throw new ApiError('NOT_FOUND', `no match ${id}`);
    return loaded;
  }

  /**
   * Load → decide → compare-and-set commit, re-deciding on a fresh read when another command
   * committed in between (the re-decision then gives the loser its proper error). Events are
   * announced only after the commit, and bots are woken without the caller waiting on them.
   *
   * The commands this process runs on one match go one at a time, in arrival order: a resign
   * sent while the bots move back to back, or many commands sent at once, would otherwise lose
   * race after race to commits decided a moment earlier and end as STALE_VERSION although
   * nothing stood in their way. Each is decided on what the one before it committed. Only
   * commands of other instances still race here, and the compare-and-set settles those.
   */
  run(given: string, decide: (r: LoadedMatch) => Decision | Promise<Decision>): Promise<LoadedMatch> {
    const matchId = matchIdOf(given);
    return this.perMatch.run(matchId, () => this.runInTurn(matchId, decide));
  }

  private async runInTurn(matchId: string, decide: (r: LoadedMatch) => Decision | Promise<Decision>): Promise<LoadedMatch> {
    for (let attempt = 1; ; attempt++) {
      // The first attempt may trust the cache (the version check catches a stale entry); a retry reads the database.
      const cached = attempt === 1 ? this.cache.get(matchId) : undefined;
      const loaded = cached ?? (await this.load(matchId, true));
      let decision: Decision;
      try {
        decision = await decide(loaded);
      } catch (e) {
        // A refusal decided on a cached entry may only say that the entry is behind: another
        // instance committed and its signal has not arrived here yet (the player's legal move
        // would read as NOT_YOUR_TURN, or its expectedVersion as STALE_VERSION). Decided again on
        // a fresh read, the refusal stands or falls on what the database holds.
        if (!(e instanceof ApiError) || cached === undefined) throw e;
        this.cache.forget(matchId);
        continue;
      }
      // A replayed command answers with the match as it is now, not as first read.
      if ('unchanged' in decision) return decision.reread ? this.load(matchId, true) : loaded;
      const seats = seatsAfter(loaded, decision.commit);
      const clock = clockUpdate(loaded, decision.commit, seats, this.clock.now());
      try {
        const { version, events } = await this.repo.commit(
          { ...decision.commit, botToMove: botToMove(decision.commit, seats), turnTo: turnTo(loaded, decision.commit, seats), clock },
          seats.map((s) => s.playerId),
        );
        const after: LoadedMatch = {
          ...loaded,
          version,
          status: decision.commit.status,
          state: decision.commit.state,
          winnerTeam: decision.commit.winnerTeam,
          lastEventSeq: loaded.lastEventSeq + events.length,
          seats,
          clockState: clock?.state ?? loaded.clockState,
          committedEvents: withMoves(events, decision.commit),
        };
        // A new player's name comes from the database; otherwise the loaded match is known.
        const final = decision.commit.seatChanges?.some((c) => c.playerId) ? await this.load(matchId, true) : after;
        this.cache.set(final);
        return this.afterCommitted(loaded, final, events, decision.commit.moves);
      } catch (e) {
        if (!(e instanceof VersionConflict)) throw e;
        this.cache.forget(matchId);
        if (attempt >= MAX_ATTEMPTS) throw new ApiError('STALE_VERSION', 'the match kept changing while this command ran; read it and retry');
      }
    }
  }

  /**
   * A new match and its first command, committed together (see MatchesRepository.insert);
   * WaitingCapReached, with nothing written, when the creator already sits in too many WAITING matches.
   */
  async create(match: NewMatch, empty: LoadedMatch, first: Commit, also?: { before: LoadedMatch; commit: Commit }): Promise<LoadedMatch> {
    const seats = seatsAfter(empty, first);
    const alsoSeats = also ? also.before.seats.map((s) => s.playerId) : [];
    const result = await this.repo.insert(
      match,
      {
        ...first,
        botToMove: botToMove(first, seats),
        turnTo: turnTo(empty, first, seats),
        clock: clockUpdate(empty, first, seats, this.clock.now()),
      },
      seats.map((s) => s.playerId),
      also ? { commit: also.commit, seats: alsoSeats } : undefined,
    );
    const created = await this.load(match.id, true);
    if (also) {
      // A rematch: its offer on the finished match committed in the same transaction.
      const events = also.commit.events.map((e, i) => ({ ...e, seq: also.commit.lastEventSeq + 1 + i }));
      await this.afterCommitted(also.before, await this.load(also.before.id, true), events, []);
    }
    return this.afterCommitted(empty, created, result.events, first.moves);
  }

  private async read(id: string): Promise<LoadedMatch | null> {
    const loaded = await this.repo.find(id);
    if (loaded) this.cache.set(loaded);
    return loaded;
  }

  /** Signals subscribers (awaited: the caller's next read finds its feeds told), then the listeners. */
  private async afterCommitted(before: LoadedMatch, after: LoadedMatch, events: StoredEvent[], moves: readonly MoveRecord[]): Promise<LoadedMatch> {
    if (events.length > 0) {
      const signal = {
        matchId: after.id,
        lastSeq: events[events.length - 1].seq,
        version: after.version,
        turnPlayerId: turnHandedTo(before, after, moves),
      };
      const ended = endedFor(before, after, events);
      await this.bus.publish(ended.length > 0 ? { ...signal, endedFor: ended } : signal).catch((e: unknown) => this.logger.error(e));
    }
    for (const listener of this.listeners) {
      try {
        listener.committed({ before, after, events, moves });
      } catch (e) {
        this.logger.error(e);
      }
    }
    return after;
  }
}

/** A commit's events as the feed reads them back (MatchesRepository.eventsAfter): each with the move it wrote. */
function withMoves(events: readonly StoredEvent[], commit: Commit): EventWithMove[] {
  const timedOut = new Set(commit.clockWork?.timedOut?.moves ?? []);
  const bySeq = new Map(commit.moves.map((m) => [m.seq, m]));
  return events.map((e) => {
    const move = e.moveSeq === null ? null : (bySeq.get(e.moveSeq) ?? null);
    return { seq: e.seq, type: e.type, seat: e.seat ?? null, timedOut: move !== null && timedOut.has(move.seq), move };
  });
}

/** Whether the seat to move once this commit holds is a bot: the match is then due work. */
function botToMove(commit: Commit, seats: LoadedMatch['seats']): boolean {
  const next = commit.state;
  return commit.status === 'IN_PROGRESS' && next !== null && seats[next.round.turn]?.isBot === true;
}

/** The human whose turn this commit begins, decided before it is written (the TURN webhook). */
function turnTo(record: LoadedMatch, commit: Commit, seats: LoadedMatch['seats']): string | null {
  return turnHandedTo(record, { ...record, status: commit.status, state: commit.state, seats }, commit.moves);
}

/** The seats once a commit holds (a seat's new player's name is not known here: null until re-read). */
function seatsAfter(loaded: LoadedMatch, commit: Commit): LoadedMatch['seats'] {
  return loaded.seats.map((s) => {
    const change = commit.seatChanges?.find((c) => c.index === s.index);
    return change ? { ...s, playerId: change.playerId, playerName: change.playerId ? s.playerName : null, clientSeed: change.clientSeed } : s;
  });
}

/**
 * The human whose turn a commit has just begun, if any: at the start, at a new round, when the
 * turn moved to another seat, or when it came back round to the same seat because every other
 * seat passed in the same commit. Not after a seat's own draw: that seat is still on its turn.
 */
export function turnHandedTo(before: LoadedMatch, after: LoadedMatch, moves: readonly MoveRecord[]): string | null {
  const next = after.state;
  if (after.status !== 'IN_PROGRESS' || !next) return null;
  const prev = before.status === 'IN_PROGRESS' ? before.state : null;
  const mover = next.round.turn;
  const began = !prev || prev.round.turn !== mover || prev.round.number !== next.round.number || moves.some((m) => m.seat !== mover);
  return began ? (after.seats[mover]?.playerId ?? null) : null;
}

/**
 * The players to push an over match to (myTurns): everyone seated before or after a commit that
 * has just ended it (FINISHED or ABANDONED), so the last player to leave a WAITING match hears of
 * it too; and every player of a finished match when its rematch is offered (REMATCH_OFFERED), so
 * that a client living on myTurns sees the offer without polling.
 */
export function endedFor(before: LoadedMatch, after: LoadedMatch, events: readonly Pick<StoredEvent, 'type'>[]): string[] {
  const over = (s: LoadedMatch['status']) => s === 'FINISHED' || s === 'ABANDONED';
  const justEnded = over(after.status) && !over(before.status);
  const rematchOffered = after.status === 'FINISHED' && events.some((e) => e.type === 'REMATCH_OFFERED');
  if (!justEnded && !rematchOffered) return [];
  const ids = [...before.seats, ...after.seats].map((s) => s.playerId).filter((id): id is string => id !== null);
  return [...new Set(ids)];
}
