import type { MoveRecord, RoundResult, Tile } from '../../domain/index.js';
import { addDelta, blockWinner, statsDeltas } from './stats-delta.js';

const tile = (high: number, low: number): Tile => ({ high, low });
let seq = 0;
const play = (seat: number, points: number): MoveRecord => ({
  seq: ++seq,
  round: 1,
  seat,
  type: 'PLAY',
  tile: tile(5, 0),
  end: 'LEFT',
  points,
  count: points,
});
const draw = (seat: number): MoveRecord => ({ seq: ++seq, round: 1, seat, type: 'DRAW', tile: tile(1, 0), end: null, points: 0, count: null });

describe('statsDeltas', () => {
  const seats = ['b-player', 'a-player'];
  const teams = [[0], [1]];

  it('credits plays and the domino bonus to the seat that went out, and counts the match at its end', () => {
    const result: RoundResult = { end: 'DOMINO', dominoSeat: 1, awarded: [0, 15], hands: [[tile(6, 6), tile(2, 1)], []] };
    const d = statsDeltas({
      seats,
      teams,
      teamOfSeat: [0, 1],
      rounds: [{ moves: [play(0, 10), draw(1), play(1, 20), play(1, 5)], result }],
      matchFinished: true,
      winnerTeam: 1,
    });
    expect(d.map((x) => x.playerId)).toEqual(['a-player', 'b-player']); // lock order
    expect(d[0]).toEqual({
      playerId: 'a-player',
      matchesPlayed: 1,
      matchesWon: 1,
      roundsPlayed: 1,
      pointsScored: 40,
      roundsWonByDomino: 1,
      roundsWonByBlock: 0,
      biggestPlay: 20,
    });
    expect(d[1]).toEqual({
      playerId: 'b-player',
      matchesPlayed: 1,
      matchesWon: 0,
      roundsPlayed: 1,
      pointsScored: 10,
      roundsWonByDomino: 0,
      roundsWonByBlock: 0,
      biggestPlay: 10,
    });
  });

  it('gives a block bonus to the partner with fewer pips and the block win to both partners', () => {
    const hands = [[tile(6, 6)], [tile(1, 0)], [tile(0, 0)], [tile(5, 5)]]; // team 0: 12 pips, team 1: 11
    const result: RoundResult = { end: 'BLOCKED', dominoSeat: null, awarded: [0, 10], hands };
    const d = statsDeltas({
      seats: ['p0', 'p1', null, 'p3'],
      teams: [
        [0, 2],
        [1, 3],
      ],
      teamOfSeat: [0, 1, 0, 1],
      rounds: [{ moves: [], result }],
      matchFinished: false,
      winnerTeam: null,
    });
    const by = new Map(d.map((x) => [x.playerId, x]));
    expect(by.get('p1')).toMatchObject({ pointsScored: 10, roundsWonByBlock: 1, matchesPlayed: 0 });
    expect(by.get('p3')).toMatchObject({ pointsScored: 0, roundsWonByBlock: 1 });
    expect(by.get('p0')).toMatchObject({ pointsScored: 0, roundsWonByBlock: 0 });
    expect(d).toHaveLength(3); // the empty seat has no row
  });

  it('a tie for the lowest block total wins for nobody', () => {
    expect(blockWinner([[tile(3, 0)], [tile(2, 1)]], [[0], [1]])).toBeNull();
  });

  it('a commit with nothing finished changes nothing but is harmless', () => {
    const d = statsDeltas({ seats, teams, teamOfSeat: [0, 1], rounds: [], matchFinished: false, winnerTeam: null });
    expect(d.every((x) => x.matchesPlayed + x.roundsPlayed + x.pointsScored === 0)).toBe(true);
  });

  it('adds deltas, keeping the biggest play', () => {
    const a = {
      playerId: 'p',
      matchesPlayed: 1,
      matchesWon: 1,
      roundsPlayed: 3,
      pointsScored: 50,
      roundsWonByDomino: 1,
      roundsWonByBlock: 0,
      biggestPlay: 20,
    };
    expect(addDelta(a, { ...a, biggestPlay: 15 })).toEqual({
      ...a,
      matchesPlayed: 2,
      matchesWon: 2,
      roundsPlayed: 6,
      pointsScored: 100,
      roundsWonByDomino: 2,
    });
  });
});
