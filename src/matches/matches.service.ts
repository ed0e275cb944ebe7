import { randomInt } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { assertId } from '../common/ids.js';
import {
  apply,
  newMatch,
  resolveRules,
  teamsFor,
  validateSetup,
  type Action,
  type ApplyResult,
  type MatchState,
  type Rules,
} from '../domain/index.js';
import type { Player } from '../players/models/player.model.js';
import { MATCH_NOTIFIER, type MatchNotifier } from '../realtime/match-notifier.js';
import { planFromEngine } from './commit-plan.js';
import type { CreateMatchInput, PlayTileInput, TurnInput } from './dto/inputs.js';
import { VersionConflict, type Commit, type MatchRecord, type StoredEvent } from './match-record.js';
import { matchModel, seatOf } from './match-view.js';
import { MatchCache } from './match-cache.js';
import { MatchesRepository } from './matches.repository.js';
import type { Match } from './models/match.model.js';
import { violationError } from './violations.js';

/** A command re-reads and re-decides at most this often when others commit first. */
const MAX_ATTEMPTS = 5;
const MAX_CLIENT_MOVE_ID = 100;

export function assertMatchId(id: string): void {
  assertId(id, 'match');
}

/** What a command decided, given a fresh read of the match. */
type Decision = { commit: Commit } | { unchanged: true; reread?: boolean };

/** Application service: per command, load → decide (the engine) → one atomic compare-and-set write → notify. */
@Injectable()
export class MatchesService {
  private readonly logger = new Logger(MatchesService.name);
  /** Called after a command commits, to let bots move; set by BotsService (avoids a cycle). */
  afterCommit: (matchId: string) => void = () => {};

  constructor(
    private readonly repo: MatchesRepository,
    private readonly cache: MatchCache,
    @Inject(MATCH_NOTIFIER) private readonly notifier: MatchNotifier,
  ) {}

  async get(id: string, viewer: Player | null): Promise<Match | null> {
    assertMatchId(id);
    const record = this.cache.get(id) ?? (await this.read(id));
    return record ? matchModel(record, viewer) : null;
  }

  async load(id: string, fresh = false): Promise<MatchRecord> {
    assertMatchId(id);
    const record = (fresh ? undefined : this.cache.get(id)) ?? (await this.read(id));
    if (!record) throw new ApiError('NOT_FOUND', `no match ${id}`);
    return record;
  }

  private async read(id: string): Promise<MatchRecord | null> {
    const record = await this.repo.find(id);
    if (record) this.cache.set(record);
    return record;
  }

  async create(player: Player, input: CreateMatchInput): Promise<Match> {
    const seats = input.seats;
    const partnerships = input.partnerships ?? false;
    const bots = input.bots ?? 0;
    const rules = this.rulesOf(input);
    const problems = validateSetup(seats, partnerships, rules);
    if (!Number.isInteger(bots) || bots < 0 || bots > seats - 1) problems.push(`bots must be 0 to ${Math.max(0, seats - 1)} (got ${bots})`);
    if (problems.length > 0) throw new ApiError('BAD_USER_INPUT', problems.join('; '), { problems });
    const teamOf = new Map<number, number>();
    teamsFor(seats, partnerships).forEach((ss, team) => ss.forEach((s) => teamOf.set(s, team)));
    const strategy = (input.botStrategy ?? 'GREEDY').toLowerCase();
    const record = await this.repo.create({
      createdById: player.id,
      seatCount: seats,
      partnerships,
      rules,
      seed: randomInt(0, 2 ** 32),
      teams: teamsFor(seats, partnerships).length,
      seats: Array.from({ length: seats }, (_, index) => {
        const isBot = index >= seats - bots;
        return { index, playerId: index === 0 ? player.id : null, team: teamOf.get(index) ?? index, isBot, botStrategy: isBot ? strategy : null };
      }),
    });
    // The creator joins seat 0 as an event; with every other seat a bot, the match starts now.
    const after = await this.run(record.id, (r) => this.seatPlayer(r, player, 0));
    return matchModel(after, player);
  }

  async join(player: Player, matchId: string): Promise<Match> {
    assertMatchId(matchId);
    const after = await this.run(matchId, (r) => {
      if (seatOf(r, player.id) !== null) throw new ApiError('BAD_USER_INPUT', 'you already sit in this match');
      if (r.status !== 'WAITING') {
        throw r.status === 'IN_PROGRESS'
          ? new ApiError('MATCH_FULL', 'every seat is taken')
          : new ApiError('MATCH_NOT_IN_PROGRESS', `the match is ${r.status}`);
      }
      const free = r.seats.find((s) => !s.isBot && s.playerId === null);
      if (!free) throw new ApiError('MATCH_FULL', 'every seat is taken');
      return this.seatPlayer(r, player, free.index);
    });
    return matchModel(after, player);
  }

  async leave(player: Player, matchId: string): Promise<Match> {
    assertMatchId(matchId);
    const after = await this.run(matchId, (r) => {
      const seat = seatOf(r, player.id);
      if (seat === null) throw new ApiError('FORBIDDEN', 'you do not sit in this match');
      if (r.status !== 'WAITING') throw new ApiError('MATCH_NOT_IN_PROGRESS', 'only a match still WAITING can be left; resign instead');
      const remaining = r.seats.filter((s) => s.playerId !== null && s.index !== seat).length;
      return {
        commit: this.bare(r, {
          status: remaining === 0 ? 'ABANDONED' : 'WAITING',
          seatChanges: [{ index: seat, playerId: null }],
          events: [{ type: 'PLAYER_LEFT', moveSeq: null }],
          finished: remaining === 0,
        }),
      };
    });
    return matchModel(after, player);
  }

  async resign(player: Player, matchId: string): Promise<Match> {
    assertMatchId(matchId);
    const after = await this.run(matchId, (r) => {
      const seat = seatOf(r, player.id);
      if (seat === null) throw new ApiError('FORBIDDEN', 'you do not sit in this match');
      if (r.status !== 'IN_PROGRESS' || !r.state) throw new ApiError('MATCH_NOT_IN_PROGRESS', `the match is ${r.status}`);
      const state = r.state;
      const loser = state.teamOfSeat[seat];
      // The other side wins; with more than two sides, the best-placed other side.
      const winner = state.scores
        .map((score, team) => ({ score, team }))
        .filter((t) => t.team !== loser)
        .sort((a, b) => b.score - a.score || a.team - b.team)[0].team;
      const finishedState: MatchState = { ...state, status: 'FINISHED', winner };
      return {
        commit: this.bare(r, {
          status: 'FINISHED',
          state: finishedState,
          winnerTeam: winner,
          finished: true,
          events: [
            { type: 'RESIGNED', moveSeq: null },
            { type: 'MATCH_FINISHED', moveSeq: null },
          ],
        }),
      };
    });
    return matchModel(after, player);
  }

  play(player: Player, input: PlayTileInput): Promise<Match> {
    return this.turnCommand(player, input, (seat) => ({
      type: 'PLAY',
      seat,
      tile: { high: input.tile.high, low: input.tile.low },
      end: input.end ?? null,
    }));
  }

  draw(player: Player, input: TurnInput): Promise<Match> {
    return this.turnCommand(player, input, (seat) => ({ type: 'DRAW', seat }));
  }

  /** A bot's move: the same path as a human's, minus authentication. */
  async botMove(matchId: string, decide: (r: MatchRecord) => Action | null): Promise<MatchRecord | null> {
    let moved = false;
    const after = await this.run(matchId, (r) => {
      if (r.status !== 'IN_PROGRESS' || !r.state) return { unchanged: true };
      const action = decide(r);
      if (!action) return { unchanged: true };
      moved = true;
      return { commit: this.fromEngine(r, apply(r.state, action)) };
    });
    return moved ? after : null;
  }

  private async turnCommand(player: Player, input: TurnInput, actionFor: (seat: number) => Action): Promise<Match> {
    assertMatchId(input.matchId);
    const clientMoveId = input.clientMoveId ?? null;
    if (clientMoveId !== null && (clientMoveId.length === 0 || clientMoveId.length > MAX_CLIENT_MOVE_ID)) {
      throw new ApiError('BAD_USER_INPUT', `clientMoveId must be 1 to ${MAX_CLIENT_MOVE_ID} characters`);
    }
    const after = await this.run(input.matchId, async (r) => {
      // A retry of a command that already committed: answer it again, apply nothing.
      if (clientMoveId && (await this.repo.hasClientMove(r.id, player.id, clientMoveId))) return { unchanged: true, reread: true };
      // The order of checks: match over → seated → version current → to move → legal (engine).
      // A stale expectedVersion wins over the rest: judged against a state the client has not
      // seen, its move may be refused for reasons it cannot make sense of (a domino seat leads the
      // next round too, so a duplicate of its last play would meet a new hand).
      if (r.status !== 'IN_PROGRESS' || !r.state) throw new ApiError('MATCH_NOT_IN_PROGRESS', `the match is ${r.status}`);
      const seat = seatOf(r, player.id);
      if (seat === null) throw new ApiError('FORBIDDEN', 'you do not sit in this match');
      if (input.expectedVersion != null && input.expectedVersion !== r.version) {
        throw new ApiError('STALE_VERSION', `the match is at version ${r.version}, not ${input.expectedVersion}`, { version: r.version });
      }
      if (r.state.round.turn !== seat) throw new ApiError('NOT_YOUR_TURN', `it is seat ${r.state.round.turn}'s turn`);
      const result = apply(r.state, actionFor(seat));
      if (!result.ok) throw violationError(result.violation);
      return { commit: this.fromEngine(r, result, { clientMoveId, playerId: player.id }) };
    });
    return matchModel(after, player);
  }

  private rulesOf(input: CreateMatchInput): Rules {
    const given = Object.fromEntries(Object.entries(input.rules ?? {}).filter(([, v]) => v !== null && v !== undefined));
    return resolveRules(given as Partial<Rules>);
  }

  /** Seats a player; when that fills the table, deals round 1 in the same commit. */
  private seatPlayer(r: MatchRecord, player: Player, index: number): Decision {
    const joined = { type: 'PLAYER_JOINED', moveSeq: null };
    const full = r.seats.every((s) => s.isBot || s.playerId !== null || s.index === index);
    if (!full) return { commit: this.bare(r, { status: 'WAITING', seatChanges: [{ index, playerId: player.id }], events: [joined] }) };
    const { state, events } = newMatch({ seats: r.seatCount, partnerships: r.partnerships, rules: r.rules, seed: r.seed });
    const commit = planFromEngine(r, state, events, { leadEvents: [joined, { type: 'MATCH_STARTED', moveSeq: null }], started: true });
    return { commit: { ...commit, seatChanges: [{ index, playerId: player.id }] } };
  }

  private fromEngine(r: MatchRecord, result: ApplyResult, extra: { clientMoveId?: string | null; playerId?: string } = {}): Commit {
    if (!result.ok) throw violationError(result.violation);
    return planFromEngine(r, result.state, result.events, extra);
  }

  private bare(r: MatchRecord, c: Partial<Commit> & Pick<Commit, 'status' | 'events'>): Commit {
    return {
      matchId: r.id,
      expectedVersion: r.version,
      lastEventSeq: r.lastEventSeq,
      state: r.state,
      winnerTeam: r.winnerTeam,
      moves: [],
      roundsFinished: [],
      roundsStarted: [],
      ...c,
    };
  }

  /**
   * Load → decide → compare-and-set commit, re-deciding on a fresh read when another command
   * committed in between (the re-decision then gives the loser its proper error). Events are
   * announced only after the commit, and bots are woken without the caller waiting on them.
   */
  private async run(matchId: string, decide: (r: MatchRecord) => Decision | Promise<Decision>): Promise<MatchRecord> {
    for (let attempt = 1; ; attempt++) {
      // The first attempt may trust the cache (the version check catches a stale entry); a retry reads the database.
      const record = await this.load(matchId, attempt > 1);
      const decision = await decide(record);
      // A replayed command answers with the match as it is now, not as first read.
      if ('unchanged' in decision) return decision.reread ? this.load(matchId, true) : record;
      const seats = record.seats.map((s) => {
        const change = decision.commit.seatChanges?.find((c) => c.index === s.index);
        return change ? { ...s, playerId: change.playerId, playerName: change.playerId ? s.playerName : null } : s;
      });
      try {
        const { version, events } = await this.repo.commit(
          decision.commit,
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
        };
        // A new player's name comes from the database; otherwise the record is known.
        const final = decision.commit.seatChanges?.some((c) => c.playerId) ? await this.load(matchId, true) : after;
        this.cache.set(final);
        return this.afterCommitted(record, final, events);
      } catch (e) {
        if (!(e instanceof VersionConflict)) throw e;
        this.cache.forget(matchId);
        if (attempt >= MAX_ATTEMPTS) throw new ApiError('STALE_VERSION', 'the match kept changing while this command ran; read it and retry');
      }
    }
  }

  private async afterCommitted(before: MatchRecord, after: MatchRecord, events: StoredEvent[]): Promise<MatchRecord> {
    await this.notifier.committed(after.id, events, after.version, turnHandedTo(before, after)).catch((e: unknown) => this.logger.error(e));
    if (after.status === 'IN_PROGRESS' && after.seats.some((s) => s.isBot)) this.afterCommit(after.id);
    return after;
  }
}

/** The human whose turn a commit has just begun (a new mover, a new round or the start), if any. */
function turnHandedTo(before: MatchRecord, after: MatchRecord): string | null {
  const next = after.state;
  if (after.status !== 'IN_PROGRESS' || !next) return null;
  const prev = before.status === 'IN_PROGRESS' ? before.state : null;
  const began = !prev || prev.round.turn !== next.round.turn || prev.round.number !== next.round.number;
  return began ? (after.seats[next.round.turn]?.playerId ?? null) : null;
}
