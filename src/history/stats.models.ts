import { Field, Float, Int, ObjectType } from '@nestjs/graphql';
import { PageInfo } from '../common/pagination.js';
import { Player } from '../players/models/player.model.js';

@ObjectType({
  description:
    'Running totals of a player over FINISHED matches (ABANDONED ones never count) and over finished rounds; kept up to date by each commit, so reading them never scans the history. Definitions: docs/history.md.',
})
export class PlayerStats {
  @Field(() => Int, { description: 'FINISHED matches the player sat in (a resigned match counts).' })
  matchesPlayed!: number;
  @Field(() => Int, { description: "Of those, the ones the player's side won (both partners win)." })
  matchesWon!: number;
  @Field(() => Int, { description: 'matchesPlayed − matchesWon.' })
  matchesLost!: number;
  @Field(() => Float, { description: 'matchesWon / matchesPlayed; 0 before the first finished match.' })
  winRate!: number;
  @Field(() => Int, { description: 'Finished rounds the player sat in (in any match, even one still in progress).' })
  roundsPlayed!: number;
  @Field(() => Int, {
    description:
      "Points the player made in finished rounds: their own plays' points, plus a round's domino bonus when they went out, plus a block bonus when they held the fewest pips of the side it was awarded to (lowest seat on a tie). Summed over a match's seats this equals the teams' total of finished rounds.",
  })
  pointsScored!: number;
  @Field(() => Float, { description: 'pointsScored / roundsPlayed; 0 before the first finished round.' })
  averagePointsPerRound!: number;
  @Field(() => Int, { description: 'Rounds the player ended by playing their last tile (DOMINO).' })
  roundsWonByDomino!: number;
  @Field(() => Int, { description: "BLOCKED rounds in which the player's side alone had the lowest pip total." })
  roundsWonByBlock!: number;
  @Field(() => Int, { description: 'The most points one PLAY of the player scored (0 if none scored).' })
  biggestPlay!: number;
}

@ObjectType({ description: 'A player on the leaderboard.' })
export class LeaderboardEntry {
  @Field(() => Int, { description: 'Position, from 1, in the order wins desc, matches played asc, player id asc (no two share one).' })
  rank!: number;
  @Field(() => Player, { description: 'The player.' })
  player!: Player;
  @Field(() => PlayerStats, { description: "The player's stats." })
  stats!: PlayerStats;
}

@ObjectType({ description: 'A leaderboard entry with its cursor.' })
export class LeaderboardEdge {
  @Field({ description: 'Pass as `after` to continue after this entry.' })
  cursor!: string;
  @Field(() => LeaderboardEntry, { description: 'The entry.' })
  node!: LeaderboardEntry;
}

@ObjectType({ description: 'Players with at least one finished match, by wins (then fewer matches played, then id).' })
export class LeaderboardConnection {
  @Field(() => Int, { description: 'Players on the leaderboard, over all pages.' })
  totalCount!: number;
  @Field(() => PageInfo, { description: 'Paging.' })
  pageInfo!: PageInfo;
  @Field(() => [LeaderboardEdge], { description: 'This page, best first.' })
  edges!: LeaderboardEdge[];
}
