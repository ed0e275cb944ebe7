import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { ApiError } from '../common/api-error.js';
import { clientMoveId as validClientMoveId } from '../common/validate.js';
import { resolveRules, validateSetup, type Action, type Rules } from '../domain/index.js';
import type { Player } from '../players/models/player.model.js';
import { engineBotStrategy } from './bot-strategy.js';
import type { CreateMatchInput, PlayTileInput, TurnInput } from './dto/inputs.js';
import { CommandRunner, matchIdOf } from './command-runner.js';
import { decideClientSeed, decideJoin, decideLeave, seatPlayer } from './decide-seating.js';
import { decideResign, decideServerMove, decideTurn, turnOf } from './decide-turn.js';
import { resolveClock } from './clock/clock-settings.js';
import { givenClientSeed, validClientSeed } from './fair-deal-secrets.js';
import { botSeatsFor, newMatchFrom, serverSetupProblems, settingsFor } from './match-settings.js';
import { WaitingCapReached, type LoadedMatch } from './loaded-match.js';
import { matchModel } from './match-view.js';
import { MatchesRepository } from './matches.repository.js';
import { PendingDealChains } from './pending-deal-chains.js';
import { BotStrategy } from './models/enums.js';
import type { Match } from './models/match.model.js';

/**
 * Application service: wires each command to its pure decision (decide-*.ts) and runs it through
 * CommandRunner, which loads, commits and announces.
 */
@Injectable()
export class MatchesService {
  private readonly maxWaiting: number;
  private readonly clockMinSeconds: number;

  constructor(
    private readonly repo: MatchesRepository,
    private readonly runner: CommandRunner,
    private readonly dealChains: PendingDealChains,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.maxWaiting = config.maxWaitingMatches;
    this.clockMinSeconds = config.clockMinSeconds;
  }

  async get(id: string, viewer: Player | null): Promise<Match | null> {
    const loaded = await this.runner.find(id);
    return loaded ? matchModel(loaded, viewer) : null;
  }

  async create(player: Player, input: CreateMatchInput): Promise<Match> {
    const seats = input.seats;
    const partnerships = input.partnerships ?? false;
    const rules = this.rulesOf(input);
    const clock = input.clock ? resolveClock(input.clock, this.clockMinSeconds) : null;
    const problems = validateSetup(seats, partnerships, rules);
    problems.push(...serverSetupProblems(rules));
    const botSeats = botSeatsFor(seats, input.bots ?? 0, input.botSeats ?? null, problems);
    if (problems.length > 0) throw new ApiError('BAD_USER_INPUT', problems.join('; '), { problems });
    const strategy = engineBotStrategy(input.botStrategy ?? BotStrategy.GREEDY);
    const creator = { playerId: player.id, clientSeed: givenClientSeed(input.clientSeed), maxWaiting: this.maxWaiting };
    const settings = settingsFor({ seats, partnerships, botSeats, botStrategy: strategy, rules, private: input.private ?? false, clock });
    // The id and chain the creator could read as nextMatch before sending their seed.
    const { match, empty } = newMatchFrom(settings, player.id, await this.dealChains.forNewMatch(player.id));
    // The creator's PLAYER_JOINED (and, with every other seat a bot, the deal) commits with the match itself.
    const first = seatPlayer(empty, creator, 0);
    const created = await this.capped(() => this.runner.create(match, empty, first));
    return matchModel(created, player);
  }

  async join(player: Player, matchId: string, clientSeed?: string | null, seat?: number | null): Promise<Match> {
    matchId = matchIdOf(matchId);
    const joiner = { playerId: player.id, clientSeed: givenClientSeed(clientSeed), maxWaiting: this.maxWaiting };
    const after = await this.capped(() => this.runner.run(matchId, (r) => decideJoin(r, joiner, 'id', seat ?? null)));
    return matchModel(after, player);
  }

  /** Changes the caller's client seed; only before the start, when no deal has used it yet. */
  async setClientSeed(player: Player, matchId: string, clientSeed: string): Promise<Match> {
    matchId = matchIdOf(matchId);
    const seed = validClientSeed(clientSeed);
    const after = await this.runner.run(matchId, (r) => decideClientSeed(r, player.id, seed));
    return matchModel(after, player);
  }

  async leave(player: Player, matchId: string): Promise<Match> {
    matchId = matchIdOf(matchId);
    const after = await this.runner.run(matchId, (r) => decideLeave(r, player.id));
    return matchModel(after, player);
  }

  async resign(player: Player, matchId: string): Promise<Match> {
    matchId = matchIdOf(matchId);
    const after = await this.runner.run(matchId, (r) => decideResign(r, player.id));
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

  /** A server-side move (a bot's): the same path as a human's, minus authentication; null when nothing moved. */
  async serverMove(matchId: string, choose: (r: LoadedMatch) => Action | null | Promise<Action | null>): Promise<LoadedMatch | null> {
    let moved = false;
    const after = await this.runner.run(matchId, async (r) => {
      const decision = decideServerMove(r, r.status === 'IN_PROGRESS' ? await choose(r) : null);
      moved = 'commit' in decision;
      return decision;
    });
    return moved ? after : null;
  }

  private async turnCommand(player: Player, input: TurnInput, actionFor: (seat: number) => Action): Promise<Match> {
    const matchId = matchIdOf(input.matchId);
    const clientMoveId = validClientMoveId(input.clientMoveId);
    // The turn the command was first decided for: decided again after losing a race, it must be the same turn.
    let turnSeen: string | null = null;
    const after = await this.runner.run(matchId, async (r) => {
      // Looked up on every attempt: a retry racing its original may find it committed meanwhile.
      const earlier = clientMoveId ? await this.repo.clientMove(r.id, player.id, clientMoveId) : null;
      const decision = decideTurn(r, { playerId: player.id, actionFor, expectedVersion: input.expectedVersion, clientMoveId, earlier, turnSeen });
      if ('commit' in decision && turnSeen === null) turnSeen = turnOf(r, player.id);
      return decision;
    });
    return matchModel(after, player);
  }

  /** Runs a command that may seat the caller in one more WAITING match than allowed. */
  private async capped<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (e) {
      if (e instanceof WaitingCapReached) throw this.tooManyWaiting();
      throw e;
    }
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
    return resolveRules(given);
  }
}
