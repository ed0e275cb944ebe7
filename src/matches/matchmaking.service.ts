import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { ApiError } from '../common/api-error.js';
import { GlobalCounts } from '../database/global-counts.js';
import { decodeCursor, pageSize } from '../common/pagination.js';
import type { MatchConnection } from './models/match-connection.model.js';
import type { Player } from '../players/models/player.model.js';
import { CommandRunner, matchIdOf } from './command-runner.js';
import { decideRematch, decideRematchSeat, rematchOffered } from './decide-rematch.js';
import { decideJoin, seatPlayer } from './decide-seating.js';
import { givenClientSeed } from './fair-deal-secrets.js';
import { AlreadyRematched, VersionConflict, WaitingCapReached } from './loaded-match.js';
import { newMatchFrom, normalizeInviteCode, serverSetupProblems, settingsOf } from './match-settings.js';
import { matchModel } from './match-view.js';
import { matchPage } from './match-page.js';
import { MatchmakingRepository } from './matchmaking.repository.js';
import type { Match } from './models/match.model.js';
import { PendingDealChains } from './pending-deal-chains.js';

/** A rematch request re-reads and re-decides at most this often when another player's commits first. */
const MAX_ATTEMPTS = 5;

/**
 * Finding opponents (invite codes, the open list) and rematches (docs/matchmaking.md): each
 * command's decision is a pure function (decide-rematch.ts, decide-seating.ts), committed
 * through CommandRunner like every other command.
 */
@Injectable()
export class MatchmakingService {
  private readonly maxWaiting: number;

  constructor(
    private readonly repo: MatchmakingRepository,
    private readonly runner: CommandRunner,
    private readonly globalCounts: GlobalCounts,
    private readonly dealChains: PendingDealChains,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.maxWaiting = config.maxWaitingMatches;
  }

  async joinByInvite(player: Player, code: string, clientSeed?: string | null, seat?: number | null): Promise<Match> {
    const normalized = normalizeInviteCode(code);
    if (!/^[0-9A-Z]{1,64}$/.test(normalized))
      throw new ApiError('BAD_USER_INPUT', 'an invite code is 1 to 64 letters and digits (dashes and spaces are ignored)');
    const matchId = await this.repo.idByInviteCode(normalized);
    if (!matchId) throw new ApiError('NOT_FOUND', 'no match has this invite code');
    const joiner = this.joiner(player, clientSeed);
    const after = await this.capped(() => this.runner.run(matchId, (r) => decideJoin(r, joiner, 'invite', seat ?? null)));
    return matchModel(after, player);
  }

  /**
   * The rematch of a FINISHED match: the first player to ask creates it (with the finished
   * match's REMATCH_OFFERED, in one transaction); later ones, and a first one that lost the race
   * to create it, join it.
   */
  async rematch(player: Player, matchId: string, clientSeed?: string | null): Promise<Match> {
    matchId = matchIdOf(matchId);
    const joiner = this.joiner(player, clientSeed);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const finished = await this.runner.load(matchId, attempt > 1);
      const plan = decideRematch(finished, player.id);
      if ('join' in plan) {
        const after = await this.capped(() => this.runner.run(plan.join, (r) => decideRematchSeat(r, joiner, plan.seat)));
        return matchModel(after, player);
      }
      const problems = serverSetupProblems(finished.rules);
      if (problems.length > 0) throw new ApiError('BAD_USER_INPUT', `no rematch of this match: ${problems.join('; ')}`, { problems });
      // The id and chain the caller could read as nextMatch before sending their seed.
      const dealInputs = await this.dealChains.forNewMatch(player.id);
      const { match, empty } = newMatchFrom(settingsOf(finished), player.id, dealInputs, plan.create.links);
      const first = seatPlayer(empty, joiner, plan.create.seat);
      try {
        const created = await this.capped(() =>
          this.runner.create(match, empty, first, { before: finished, commit: rematchOffered(finished, plan.create.seat) }),
        );
        return matchModel(created, player);
      } catch (e) {
        // Another player's rematch committed first (or the finished record was stale): read again, then join it.
        if (!(e instanceof AlreadyRematched) && !(e instanceof VersionConflict)) throw e;
      }
    }
    throw new ApiError('STALE_VERSION', 'the match kept changing while this command ran; read it and retry');
  }

  /** Public WAITING matches with a free seat, oldest first. */
  /**
   * @param count whether to count every open match (totalCount): it reads them all, so it is made
   * only when asked for, and waits its turn among the counts over everyone (GlobalCounts)
   * @param caller the client's address: whose turn that is
   */
  async openMatches(
    viewer: Player | null,
    args: { first?: number | null; after?: string | null },
    count: boolean,
    caller: string,
  ): Promise<MatchConnection> {
    const take = pageSize(args.first);
    const after = args.after ? decodeCursor(args.after) : null;
    const [rows, total] = await Promise.all([
      this.repo.openPage(take + 1, after),
      count ? this.globalCounts.run(caller, () => this.repo.openCount()) : null,
    ]);
    return matchPage(rows, take, viewer, total);
  }

  /** A match by id as this viewer may see it (Match.rematch). */
  async find(id: string, viewer: Player | null): Promise<Match | null> {
    const r = await this.runner.find(id);
    return r ? matchModel(r, viewer) : null;
  }

  private joiner(player: Player, clientSeed?: string | null) {
    return { playerId: player.id, clientSeed: givenClientSeed(clientSeed), maxWaiting: this.maxWaiting };
  }

  private async capped<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (e) {
      if (e instanceof WaitingCapReached)
        throw new ApiError(
          'TOO_MANY_WAITING_MATCHES',
          `you already sit in ${this.maxWaiting} matches waiting for players (MAX_WAITING_MATCHES): start, leave or wait for one first`,
          { limit: this.maxWaiting },
        );
      throw e;
    }
  }
}
