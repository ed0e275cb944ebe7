import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import type { MoveRecord } from '../domain/index.js';
import { assertId } from '../common/ids.js';
import { MATCH_NOTIFIER, type MatchNotifier } from '../realtime/match-notifier.js';
import { CLOCK, type Clock } from './clock/clock.js';
import { clockUpdate } from './clock/clock-commit.js';
import { VersionConflict, type Commit, type MatchRecord, type StoredEvent } from './match-record.js';
import { MatchCache } from './match-cache.js';
import { MatchesRepository, type NewMatch } from './matches.repository.js';

/** A command re-reads and re-decides at most this often when others commit first. */
const MAX_ATTEMPTS = 5;

export function assertMatchId(id: string): void {
  assertId(id, 'match');
}

/** What a command decided, given a fresh read of the match. */
export type Decision = { commit: Commit } | { unchanged: true; reread?: boolean };

/**
 * How every command runs, whoever decides it (a player's mutation or a bot): load the match →
 * decide → one compare-and-set commit → announce. The deciding lives in MatchesService; this is
 * the part they all share, with the cache of latest match records it keeps current.
 */
@Injectable()
export class CommandRunner {
  private readonly logger = new Logger(CommandRunner.name);
  /** Called after a command commits, to let bots move; set by BotsService (avoids a cycle). */
  afterCommit: (matchId: string) => void = () => {};

  constructor(
    private readonly repo: MatchesRepository,
    private readonly cache: MatchCache,
    @Inject(MATCH_NOTIFIER) private readonly notifier: MatchNotifier,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The latest known record of a match (the cache, else the database), or null. */
  async find(id: string): Promise<MatchRecord | null> {
    assertMatchId(id);
    return this.cache.get(id) ?? (await this.read(id));
  }

  async load(id: string, fresh = false): Promise<MatchRecord> {
    assertMatchId(id);
    const record = (fresh ? undefined : this.cache.get(id)) ?? (await this.read(id));
    if (!record) throw new ApiError('NOT_FOUND', `no match ${id}`);
    return record;
  }

  /**
   * Load → decide → compare-and-set commit, re-deciding on a fresh read when another command
   * committed in between (the re-decision then gives the loser its proper error). Events are
   * announced only after the commit, and bots are woken without the caller waiting on them.
   */
  async run(matchId: string, decide: (r: MatchRecord) => Decision | Promise<Decision>): Promise<MatchRecord> {
    for (let attempt = 1; ; attempt++) {
      // The first attempt may trust the cache (the version check catches a stale entry); a retry reads the database.
      const record = await this.load(matchId, attempt > 1);
      const decision = await decide(record);
      // A replayed command answers with the match as it is now, not as first read.
      if ('unchanged' in decision) return decision.reread ? this.load(matchId, true) : record;
      const seats = seatsAfter(record, decision.commit);
      const clock = clockUpdate(record, decision.commit, seats, this.clock.now());
      try {
        const { version, events } = await this.repo.commit(
          { ...decision.commit, botToMove: botToMove(decision.commit, seats), clock },
          seats.map((s) => s.playerId),
        );
        const after: MatchRecord = {
          ...record,
          version,
          status: decision.commit.status,
          state: decision.commit.state,
          winnerTeam: decision.commit.winnerTeam,
          lastEventSeq: record.lastEventSeq + events.length,
          seats,
          clockState: clock?.state ?? record.clockState,
        };
        // A new player's name comes from the database; otherwise the record is known.
        const final = decision.commit.seatChanges?.some((c) => c.playerId) ? await this.load(matchId, true) : after;
        this.cache.set(final);
        return this.afterCommitted(record, final, events, decision.commit.moves);
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
  async create(match: NewMatch, empty: MatchRecord, first: Commit): Promise<MatchRecord> {
    const seats = seatsAfter(empty, first);
    const result = await this.repo.insert(
      match,
      { ...first, botToMove: botToMove(first, seats), clock: clockUpdate(empty, first, seats, this.clock.now()) },
      seats.map((s) => s.playerId),
    );
    const created = await this.load(match.id, true);
    return this.afterCommitted(empty, created, result.events, first.moves);
  }

  private async read(id: string): Promise<MatchRecord | null> {
    const record = await this.repo.find(id);
    if (record) this.cache.set(record);
    return record;
  }

  private async afterCommitted(before: MatchRecord, after: MatchRecord, events: StoredEvent[], moves: readonly MoveRecord[]): Promise<MatchRecord> {
    await this.notifier
      .committed(after.id, events, after.version, turnHandedTo(before, after, moves), endedFor(before, after))
      .catch((e: unknown) => this.logger.error(e));
    if (after.status === 'IN_PROGRESS' && after.seats.some((s) => s.isBot)) this.afterCommit(after.id);
    return after;
  }
}

/** Whether the seat to move once this commit holds is a bot: the match is then due work. */
function botToMove(commit: Commit, seats: MatchRecord['seats']): boolean {
  const next = commit.state;
  return commit.status === 'IN_PROGRESS' && next !== null && seats[next.round.turn]?.isBot === true;
}

/** The seats once a commit holds (a seat's new player's name is not known here: null until re-read). */
function seatsAfter(record: MatchRecord, commit: Commit): MatchRecord['seats'] {
  return record.seats.map((s) => {
    const change = commit.seatChanges?.find((c) => c.index === s.index);
    return change ? { ...s, playerId: change.playerId, playerName: change.playerId ? s.playerName : null, clientSeed: change.clientSeed } : s;
  });
}

/**
 * The human whose turn a commit has just begun, if any: at the start, at a new round, when the
 * turn moved to another seat, or when it came back round to the same seat because every other
 * seat passed in the same commit. Not after a seat's own draw: that seat is still on its turn.
 */
export function turnHandedTo(before: MatchRecord, after: MatchRecord, moves: readonly MoveRecord[]): string | null {
  const next = after.state;
  if (after.status !== 'IN_PROGRESS' || !next) return null;
  const prev = before.status === 'IN_PROGRESS' ? before.state : null;
  const mover = next.round.turn;
  const began = !prev || prev.round.turn !== mover || prev.round.number !== next.round.number || moves.some((m) => m.seat !== mover);
  return began ? (after.seats[mover]?.playerId ?? null) : null;
}

/**
 * The players to tell that a commit has just ended the match (FINISHED or ABANDONED): everyone
 * seated before or after it, so the last player to leave a WAITING match hears of it too.
 */
export function endedFor(before: MatchRecord, after: MatchRecord): string[] {
  const over = (s: MatchRecord['status']) => s === 'FINISHED' || s === 'ABANDONED';
  if (!over(after.status) || over(before.status)) return [];
  const ids = [...before.seats, ...after.seats].map((s) => s.playerId).filter((id): id is string => id !== null);
  return [...new Set(ids)];
}
