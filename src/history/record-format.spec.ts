import { resolveRules, type RoundResult } from '../domain/index.js';
import { buildRecordBody, type RecordSource } from './record-format.js';

const result: RoundResult = { end: 'DOMINO', dominoSeat: 0, awarded: [10, 0], hands: [[], [{ high: 6, low: 4 }]] };

function source(over: Partial<RecordSource> = {}): RecordSource {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    createdAt: new Date('2026-01-01T00:00:00Z'),
    finishedAt: new Date('2026-01-01T00:10:00Z'),
    seatCount: 2,
    partnerships: false,
    // A stored rules object may carry more than the format knows: only the 12 rules are exported.
    rules: { ...resolveRules({ targetScore: 100 }), seed: 42 } as never,
    winnerTeam: 0,
    seats: [
      { index: 0, team: 0, isBot: false, botStrategy: null, playerId: 'p0', playerName: 'ann' },
      { index: 1, team: 1, isBot: true, botStrategy: 'greedy', playerId: null, playerName: null },
    ],
    scores: [10, 0],
    rounds: [{ number: 1, starter: 0, status: 'FINISHED', result }],
    moves: [
      { seq: 1, round: 1, seat: 0, type: 'PLAY', tile: { high: 5, low: 5 }, end: null, points: 10, count: 10 },
      { seq: 2, round: 1, seat: 1, type: 'DRAW', tile: { high: 6, low: 4 }, end: null, points: 0, count: null },
    ],
    cutShortHands: null,
    ...over,
  };
}

describe('buildRecordBody', () => {
  it('carries the format, the rules, seats, teams, moves and results, and no seed', () => {
    const r = buildRecordBody(source());
    expect(r.format).toBe('straight-dominoes/match-record');
    expect(r.version).toBe(2);
    expect(Object.keys(r.rules)).toHaveLength(12);
    expect(JSON.stringify(r)).not.toMatch(/seed|boneyard/);
    expect(r.teams).toEqual([
      { index: 0, seats: [0] },
      { index: 1, seats: [1] },
    ]);
    expect(r.seats[1]).toEqual({ index: 1, team: 1, isBot: true, botStrategy: 'GREEDY', player: null }); // GraphQL's spelling
    expect(r.rounds[0].moves[1].tile).toEqual({ high: 6, low: 4 }); // a finished round's draws are public
    expect(r.rounds[0].result).toEqual({
      end: 'DOMINO',
      dominoSeat: 0,
      awarded: [10, 0],
      hands: [
        { seat: 0, tiles: [] },
        { seat: 1, tiles: [{ high: 6, low: 4 }] },
      ],
    });
    expect(r.ending).toBe('TARGET_REACHED');
  });

  it('marks a round cut short by a resignation, and shows its draws and hands once the match is over', () => {
    const hands = [[{ high: 3, low: 1 }], [{ high: 6, low: 4 }]];
    const r = buildRecordBody(source({ rounds: [{ number: 1, starter: 0, status: 'IN_PROGRESS', result: null }], cutShortHands: hands }));
    expect(r.rounds[0].status).toBe('UNFINISHED');
    expect(r.rounds[0].result).toEqual({
      end: 'RESIGNED',
      dominoSeat: null,
      awarded: [0, 0],
      hands: [
        { seat: 0, tiles: [{ high: 3, low: 1 }] },
        { seat: 1, tiles: [{ high: 6, low: 4 }] },
      ],
    });
    expect(r.rounds[0].moves[0].tile).toEqual({ high: 5, low: 5 });
    expect(r.rounds[0].moves[1].tile).toEqual({ high: 6, low: 4 });
    expect(r.ending).toBe('RESIGNED');
    expect(r.forfeit).toBeUndefined(); // nothing stored says why: no forfeit field
  });

  it('says why a forfeit ended the match and which seat, for a RESIGNED ending only', () => {
    const cut = { rounds: [{ number: 1, starter: 0, status: 'IN_PROGRESS' as const, result: null }], cutShortHands: [[], []] };
    expect(buildRecordBody(source({ ...cut, forfeit: { cause: 'TIMED_OUT', seat: 1 } })).forfeit).toEqual({ cause: 'TIMED_OUT', seat: 1 });
    expect(buildRecordBody(source({ ...cut, forfeit: { cause: 'RESIGNED', seat: null } })).forfeit).toEqual({ cause: 'RESIGNED', seat: null });
    // A played-out match has no forfeit, whatever came before its last event.
    expect('forfeit' in buildRecordBody(source({ forfeit: { cause: 'TIMED_OUT', seat: 1 } }))).toBe(false);
  });
});
