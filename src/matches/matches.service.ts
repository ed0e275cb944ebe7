import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { ApiError } from '../common/api-error.js';
import { clientMoveId as validClientMoveId } from '../common/validate.js';
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
import { assertMatchId, CommandRunner } from './command-runner.js';
import { clientSeedOrRandom, dealSourceOf, newDealChain, randomClientSeed } from './fair-deal-secrets.js';
import type { Commit, MatchRecord, NewEvent } from './match-record.js';
import { matchModel, seatOf } from './match-view.js';
import { MatchesRepository, type NewMatch } from './matches.repository.js';
import type { Match } from './models/match.model.js';
import { violationError } from './violations.js';

/** Application service: what each command decides (with the engine); CommandRunner loads, commits and announces. */
@Injectable()
export class MatchesService {
  private readonly maxWaiting: number;

  constructor(
    private readonly repo: MatchesRepository,
    private readonly runner: CommandRunner,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.maxWaiting = config.maxWaitingMatches;
  }

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
    const creatorSeed = clientSeedOrRandom(input.clientSeed);
    const match: NewMatch = {
      id: randomUUID(),
      createdById: player.id,
      seatCount: seats,
      partnerships,
      rules,
      ...newDealChain(),
      teams: teamsFor(seats, partnerships).length,
      seats: Array.from({ length: seats }, (_, index) => {
        const isBot = index >= seats - bots;
        return { index, team: teamOf.get(index) ?? index, isBot, botStrategy: isBot ? strategy : null, clientSeed: randomClientSeed() };
      }),
    };
    const empty: MatchRecord = {
      id: match.id,
      seatCount: seats,
      partnerships,
      rules,
      chainSecret: match.chainSecret,
      dealCommitment: match.dealCommitment,
      status: 'WAITING',
      version: 0,
      state: null,
      lastEventSeq: 0,
      createdAt: new Date(),
      winnerTeam: null,
      seats: match.seats.map((s) => ({ ...s, playerId: null, playerName: null })),
    };
    // The creator's PLAYER_JOINED (and, with every other seat a bot, the deal) commits with the match itself.
    const created = await this.runner.create(match, empty, this.seatPlayer(empty, player, 0, creatorSeed).commit, this.maxWaiting);
    if (!created) throw this.tooManyWaiting();
    return matchModel(created, player);
  }

  async join(player: Player, matchId: string, clientSeed?: string | null): Promise<Match> {
    assertMatchId(matchId);
    const seed = clientSeedOrRandom(clientSeed);
    const after = await this.runner.run(matchId, async (r) => {
      if (seatOf(r, player.id) !== null) throw new ApiError('BAD_USER_INPUT', 'you already sit in this match');
      if (r.status !== 'WAITING') {
        throw r.status === 'IN_PROGRESS'
          ? new ApiError('MATCH_FULL', 'every seat is taken')
          : new ApiError('MATCH_NOT_IN_PROGRESS', `the match is ${r.status}`);
      }
      const free = r.seats.find((s) => !s.isBot && s.playerId === null);
      if (!free) throw new ApiError('MATCH_FULL', 'every seat is taken');
      const decision = this.seatPlayer(r, player, free.index, seed);
      if (decision.commit.status === 'WAITING' && (await this.repo.waitingCount(player.id)) >= this.maxWaiting) throw this.tooManyWaiting();
      return decision;
    });
    return matchModel(after, player);
  }

  /** Changes the caller's client seed; only before the start, when no deal has used it yet. */
  async setClientSeed(player: Player, matchId: string, clientSeed: string): Promise<Match> {
    assertMatchId(matchId);
    const seed = clientSeedOrRandom(clientSeed);
    const after = await this.runner.run(matchId, (r) => {
      const seat = seatOf(r, player.id);
      if (seat === null) throw new ApiError('FORBIDDEN', 'you do not sit in this match');
      if (r.status !== 'WAITING') throw new ApiError('MATCH_NOT_IN_PROGRESS', 'a client seed can be set only while the match is WAITING');
      return {
        commit: this.bare(r, {
          status: 'WAITING',
          seatChanges: [{ index: seat, playerId: player.id, clientSeed: seed }],
          events: [{ type: 'CLIENT_SEED_SET', moveSeq: null }],
        }),
      };
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
          // The next player to sit here brings a seed of their own, or gets a fresh random one.
          seatChanges: [{ index: seat, playerId: null, clientSeed: randomClientSeed() }],
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
          // Resigned before any round was played out: no stats or leaderboard credit for anyone,
          // or two accounts could farm wins by create–join–resign.
          unrated: state.round.number === 1,
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
    const clientMoveId = validClientMoveId(input.clientMoveId);
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
      // The order of checks: match over → seated → version current → then the engine: a tile
      // that exists → to move → legal. A stale expectedVersion wins over the rest: judged against
      // a state the client has not seen, its move may be refused for reasons it cannot make sense
      // of (a domino seat leads the next round too, so a duplicate of its last play would meet a
      // new hand). A tile like 9-9 is refused as such even out of turn: no state makes it right.
      if (r.status !== 'IN_PROGRESS' || !r.state) throw new ApiError('MATCH_NOT_IN_PROGRESS', `the match is ${r.status}`);
      const seat = seatOf(r, player.id);
      if (seat === null) throw new ApiError('FORBIDDEN', 'you do not sit in this match');
      if (input.expectedVersion != null && input.expectedVersion !== r.version) {
        throw new ApiError('STALE_VERSION', `the match is at version ${r.version}, not ${input.expectedVersion}`, { version: r.version });
      }
      const result = apply(r.state, actionFor(seat));
      if (!result.ok) throw violationError(result.violation);
      return { commit: this.fromEngine(r, result, { clientMoveId, playerId: player.id }) };
    });
    return matchModel(after, player);
  }

  private tooManyWaiting(): ApiError {
    return new ApiError(
      'TOO_MANY_WAITING_MATCHES',
      `you already sit in ${this.maxWaiting} matches waiting for players (MAX_WAITING_MATCHES): start, leave or wait for one first`,
      { limit: this.maxWaiting },
    );
  }

  private rulesOf(input: CreateMatchInput): Rules {
    const given = Object.fromEntries(Object.entries(input.rules ?? {}).filter(([, v]) => v !== null && v !== undefined));
    return resolveRules(given as Partial<Rules>);
  }

  /** Seats a player with their client seed; when that fills the table, deals round 1 in the same commit. */
  private seatPlayer(r: MatchRecord, player: Player, index: number, clientSeed: string): { commit: Commit } {
    const joined: NewEvent = { type: 'PLAYER_JOINED', moveSeq: null };
    const seatChanges = [{ index, playerId: player.id, clientSeed }];
    const full = r.seats.every((s) => s.isBot || s.playerId !== null || s.index === index);
    if (!full) return { commit: this.bare(r, { status: 'WAITING', seatChanges, events: [joined] }) };
    const clientSeeds = r.seats.map((s) => (s.index === index ? clientSeed : s.clientSeed));
    const config = { seats: r.seatCount, partnerships: r.partnerships, rules: r.rules, deal: dealSourceOf(r, clientSeeds) };
    const { state, events } = newMatch(config);
    const commit = planFromEngine(r, state, events, { leadEvents: [joined, { type: 'MATCH_STARTED', moveSeq: null }], started: true });
    return { commit: { ...commit, seatChanges } };
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
