import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import {
  apply,
  newMatch,
  normalizeTile,
  resolveRules,
  teamsFor,
  validateSetup,
  type Action,
  type ApplyResult,
  type MoveRecord,
  type MatchState,
  type Rules,
} from '../domain/index.js';
import type { Player } from '../players/models/player.model.js';
import { planFromEngine } from './commit-plan.js';
import type { CreateMatchInput, PlayTileInput, TurnInput } from './dto/inputs.js';
import { assertMatchId, CommandRunner, type Decision } from './command-runner.js';
import type { Commit, MatchRecord } from './match-record.js';
import { matchModel, seatOf } from './match-view.js';
import { MatchesRepository } from './matches.repository.js';
import type { Match } from './models/match.model.js';
import { violationError } from './violations.js';

const MAX_CLIENT_MOVE_ID = 100;

/** Application service: what each command decides (with the engine); CommandRunner loads, commits and announces. */
@Injectable()
export class MatchesService {
  constructor(
    private readonly repo: MatchesRepository,
    private readonly runner: CommandRunner,
  ) {}

  async get(id: string, viewer: Player | null): Promise<Match | null> {
    const record = await this.runner.find(id);
    return record ? matchModel(record, viewer) : null;
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
      seed: secretSeed(),
      teams: teamsFor(seats, partnerships).length,
      seats: Array.from({ length: seats }, (_, index) => {
        const isBot = index >= seats - bots;
        return { index, playerId: index === 0 ? player.id : null, team: teamOf.get(index) ?? index, isBot, botStrategy: isBot ? strategy : null };
      }),
    });
    // The creator joins seat 0 as an event; with every other seat a bot, the match starts now.
    const after = await this.runner.run(record.id, (r) => this.seatPlayer(r, player, 0));
    return matchModel(after, player);
  }

  async join(player: Player, matchId: string): Promise<Match> {
    assertMatchId(matchId);
    const after = await this.runner.run(matchId, (r) => {
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
    const after = await this.runner.run(matchId, (r) => {
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
    const after = await this.runner.run(matchId, (r) => {
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
  async botMove(matchId: string, decide: (r: MatchRecord) => Action | null | Promise<Action | null>): Promise<MatchRecord | null> {
    let moved = false;
    const after = await this.runner.run(matchId, async (r) => {
      if (r.status !== 'IN_PROGRESS' || !r.state) return { unchanged: true };
      const action = await decide(r);
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
    const after = await this.runner.run(input.matchId, async (r) => {
      // A retry of a command that already committed: answer it again, apply nothing. The same key
      // on a different move is a client bug that would otherwise pass silently for a success.
      const earlier = clientMoveId ? await this.repo.clientMove(r.id, player.id, clientMoveId) : null;
      if (earlier) {
        if (!sameCommand(earlier, actionFor(earlier.seat))) {
          throw new ApiError(
            'BAD_USER_INPUT',
            `clientMoveId "${clientMoveId}" was already used for another move (seq ${earlier.seq}, ${describe(earlier)})`,
            {
              moveSeq: earlier.seq,
            },
          );
        }
        return { unchanged: true, reread: true };
      }
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
}

/** Does an action ask for what a stored move did? (An omitted end matches the end it was given.) */
function sameCommand(stored: Pick<MoveRecord, 'type' | 'tile' | 'end'>, action: Action): boolean {
  if (action.type !== stored.type) return false;
  if (action.type === 'DRAW') return true;
  const asked = normalizeTile(action.tile);
  return (
    stored.tile !== null && asked.high === stored.tile.high && asked.low === stored.tile.low && (action.end == null || action.end === stored.end)
  );
}

function describe(m: Pick<MoveRecord, 'type' | 'tile' | 'end'>): string {
  return m.type === 'PLAY' && m.tile ? `PLAY ${m.tile.high}-${m.tile.low}${m.end ? ` on ${m.end}` : ''}` : m.type;
}

/** A uniformly random 53-bit seed from the OS's CSPRNG: the whole seed space the engine takes. */
function secretSeed(): number {
  return Number(randomBytes(8).readBigUInt64BE() >> 11n);
}
