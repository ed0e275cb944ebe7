import { pipCount, type MoveRecord, type RoundResult } from '../../domain/index.js';

/**
 * What one commit adds to each seated player's running stats. Pure, so the definitions
 * (docs/history.md) are unit-tested and the bench seeds its totals with the same code.
 *
 * Points are credited when a round finishes (from that round's full move log), so that
 * "points per round" divides points and rounds of the same set of rounds.
 */
export interface StatsDelta {
  playerId: string;
  matchesPlayed: number;
  matchesWon: number;
  roundsPlayed: number;
  pointsScored: number;
  roundsWonByDomino: number;
  roundsWonByBlock: number;
  biggestPlay: number;
}

export interface StatsInput {
  /** seat index → player id (null for bots and free seats) */
  seats: readonly (string | null)[];
  teams: readonly (readonly number[])[];
  teamOfSeat: readonly number[];
  rounds: readonly { moves: readonly MoveRecord[]; result: RoundResult }[];
  /** the match reached FINISHED in this commit (ABANDONED never counts) */
  matchFinished: boolean;
  winnerTeam: number | null;
}

interface SeatCredit {
  points: number;
  domino: number;
  block: number;
  biggest: number;
}

/** The team member with the fewest pips left (lowest seat on a tie): who "made" a block bonus. */
export function blockBonusSeat(hands: RoundResult['hands'], seats: readonly number[]): number {
  let best = seats[0];
  for (const s of seats) if (pipCount(hands[s]) < pipCount(hands[best])) best = s;
  return best;
}

/** The team that alone has the lowest pip total after a block, or null on a tie for lowest. */
export function blockWinner(hands: RoundResult['hands'], teams: readonly (readonly number[])[]): number | null {
  const totals = teams.map((ss) => ss.reduce((sum, s) => sum + pipCount(hands[s]), 0));
  const low = Math.min(...totals);
  const at = totals.flatMap((t, i) => (t === low ? [i] : []));
  return at.length === 1 ? at[0] : null;
}

/** Per-seat credits of one finished round. */
export function roundCredits(
  round: { moves: readonly MoveRecord[]; result: RoundResult },
  teams: readonly (readonly number[])[],
  seatCount: number,
): SeatCredit[] {
  const credit: SeatCredit[] = Array.from({ length: seatCount }, () => ({ points: 0, domino: 0, block: 0, biggest: 0 }));
  for (const m of round.moves) {
    if (m.type !== 'PLAY') continue;
    credit[m.seat].points += m.points;
    credit[m.seat].biggest = Math.max(credit[m.seat].biggest, m.points);
  }
  const r = round.result;
  if (r.end === 'DOMINO' && r.dominoSeat !== null) {
    credit[r.dominoSeat].domino = 1;
    // The domino bonus is the team's, earned by the seat that went out.
    for (let t = 0; t < teams.length; t++) if (r.awarded[t] > 0) credit[r.dominoSeat].points += r.awarded[t];
  } else if (r.end === 'BLOCKED') {
    teams.forEach((seats, t) => {
      if (r.awarded[t] > 0) credit[blockBonusSeat(r.hands, seats)].points += r.awarded[t];
    });
    const winner = blockWinner(r.hands, teams);
    if (winner !== null) for (const s of teams[winner]) credit[s].block = 1;
  }
  return credit;
}

/** The deltas for every seated player, sorted by player id (a fixed lock order for the upsert). */
export function statsDeltas(input: StatsInput): StatsDelta[] {
  const n = input.seats.length;
  const total: SeatCredit[] = Array.from({ length: n }, () => ({ points: 0, domino: 0, block: 0, biggest: 0 }));
  for (const round of input.rounds) {
    roundCredits(round, input.teams, n).forEach((c, s) => {
      total[s].points += c.points;
      total[s].domino += c.domino;
      total[s].block += c.block;
      total[s].biggest = Math.max(total[s].biggest, c.biggest);
    });
  }
  const out: StatsDelta[] = [];
  input.seats.forEach((playerId, seat) => {
    if (!playerId) return;
    out.push({
      playerId,
      matchesPlayed: input.matchFinished ? 1 : 0,
      matchesWon: input.matchFinished && input.winnerTeam === input.teamOfSeat[seat] ? 1 : 0,
      roundsPlayed: input.rounds.length,
      pointsScored: total[seat].points,
      roundsWonByDomino: total[seat].domino,
      roundsWonByBlock: total[seat].block,
      biggestPlay: total[seat].biggest,
    });
  });
  return out.sort((a, b) => (a.playerId < b.playerId ? -1 : a.playerId > b.playerId ? 1 : 0));
}

/** Adds deltas of the same player together (the bench folds many matches into one row each). */
export function addDelta(a: StatsDelta, b: StatsDelta): StatsDelta {
  return {
    playerId: a.playerId,
    matchesPlayed: a.matchesPlayed + b.matchesPlayed,
    matchesWon: a.matchesWon + b.matchesWon,
    roundsPlayed: a.roundsPlayed + b.roundsPlayed,
    pointsScored: a.pointsScored + b.pointsScored,
    roundsWonByDomino: a.roundsWonByDomino + b.roundsWonByDomino,
    roundsWonByBlock: a.roundsWonByBlock + b.roundsWonByBlock,
    biggestPlay: Math.max(a.biggestPlay, b.biggestPlay),
  };
}
