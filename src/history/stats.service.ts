import { Injectable } from '@nestjs/common';
import DataLoader from 'dataloader';
import { canonicalId, UUID } from '../common/ids.js';
import { notACursor, pageSize } from '../common/pagination.js';
import { INT32_MAX } from '../common/validate.js';
import type { LeaderboardConnection, PlayerStats } from './stats.models.js';
import { GlobalCounts } from '../database/global-counts.js';
import { StatsRepository, type LeaderKey, type StatsRow } from './stats.repository.js';

export function statsModel(r: Omit<StatsRow, 'playerId' | 'playerName'> | null): PlayerStats {
  const s = r ?? { matchesPlayed: 0, matchesWon: 0, roundsPlayed: 0, pointsScored: 0, roundsWonByDomino: 0, roundsWonByBlock: 0, biggestPlay: 0 };
  return {
    ...s,
    matchesLost: s.matchesPlayed - s.matchesWon,
    winRate: s.matchesPlayed > 0 ? s.matchesWon / s.matchesPlayed : 0,
    averagePointsPerRound: s.roundsPlayed > 0 ? s.pointsScored / s.roundsPlayed : 0,
  };
}

function encodeKey(k: LeaderKey): string {
  return Buffer.from(`${k.won}|${k.played}|${k.playerId}`).toString('base64url');
}

function decodeKey(cursor: string): LeaderKey {
  const [won, played, playerId, ...rest] = Buffer.from(cursor, 'base64url').toString().split('|');
  const k = { won: Number(won), played: Number(played), playerId: playerId ?? '' };
  const count = (n: number) => Number.isInteger(n) && n >= 0 && n <= INT32_MAX;
  if (rest.length > 0 || !count(k.won) || !count(k.played) || !UUID.test(k.playerId)) throw notACursor();
  return k;
}

@Injectable()
export class StatsService {
  /**
   * Player.stats of every player resolved in the same tick (the seats of a page of matches) in
   * one statement. Batching only, no cache: nothing is held past the tick, so no answer can be stale.
   */
  private readonly byPlayer: DataLoader<string, StatsRow | null>;

  constructor(
    private readonly repo: StatsRepository,
    private readonly globalCounts: GlobalCounts,
  ) {
    this.byPlayer = new DataLoader((ids) => repo.ofPlayers(ids), { cache: false });
  }

  async ofPlayer(playerId: string): Promise<PlayerStats> {
    playerId = canonicalId(playerId, 'player');
    return statsModel(await this.byPlayer.load(playerId));
  }

  /** @param caller the client's address: whose turn it is when counts over every player wait (GlobalCounts) */
  async leaderboard(args: { first?: number | null; after?: string | null }, caller: string): Promise<LeaderboardConnection> {
    const take = pageSize(args.first);
    const after = args.after ? decodeKey(args.after) : null;
    // Every page counts over every player to rank itself: it waits its turn (GlobalCounts).
    const { rows, before, total } = await this.globalCounts.run(caller, () => this.repo.leaderboard(take + 1, after));
    const edges = rows.slice(0, take).map((r, i) => ({
      cursor: encodeKey({ won: r.matchesWon, played: r.matchesPlayed, playerId: r.playerId }),
      node: { rank: before + i + 1, player: { id: r.playerId, name: r.playerName }, stats: statsModel(r) },
    }));
    return { totalCount: total, pageInfo: { hasNextPage: rows.length > take, endCursor: edges.at(-1)?.cursor ?? null }, edges };
  }
}
