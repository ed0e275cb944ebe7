import { startTestApp, type TestApp } from './support/app.js';
import { driveMatch, viewOf } from './support/driver.js';
import { M_CREATE, M_JOIN, type MatchT } from './support/fragments.js';
import type { GqlClient } from './support/gql.js';
import { expectReplayable } from './support/replay-check.js';
import { verifyRecord } from '../src/history/verify-record.js';

/**
 * Whole matches to the target through the public API: every human seat is driven from its own
 * legalMoves / canDraw; afterwards the stored rounds must replay from their deal source and moves
 * alone, and the exported record must pass the fair-deal verifier.
 */
describe('complete matches over GraphQL', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  async function setUp(input: Record<string, unknown>): Promise<{ matchId: string; bySeat: Map<number, GqlClient>; created: MatchT }> {
    const seats = input.seats as number;
    const bots = (input.bots as number | undefined) ?? 0;
    const humans = await Promise.all(Array.from({ length: seats - bots }, (_, i) => app.player(`p${i}`)));
    const { createMatch } = await humans[0].request<{ createMatch: MatchT }>(M_CREATE, { input });
    const bySeat = new Map<number, GqlClient>([[0, humans[0]]]);
    for (const h of humans.slice(1)) {
      const { joinMatch } = await h.request<{ joinMatch: MatchT }>(M_JOIN, { id: createMatch.id });
      bySeat.set(joinMatch.mySeat!, h);
    }
    return { matchId: createMatch.id, bySeat, created: createMatch };
  }

  const cases: [string, Record<string, unknown>][] = [
    ['2 players', { seats: 2 }],
    ['3 players', { seats: 3 }],
    ['4 individual players', { seats: 4 }],
    ['4 players in partnerships', { seats: 4, partnerships: true }],
    ['1 human + 3 bots', { seats: 4, bots: 3 }],
    ['no spinner, reserve 2', { seats: 2, rules: { spinner: 'NONE', reserve: 2 } }],
    ['difference scoring to 100, 3 players', { seats: 3, rules: { blockedBonus: 'DIFFERENCE', targetScore: 100 } }],
    ['fives-and-threes to 61', { seats: 2, rules: { scoring: 'FIVES_AND_THREES', targetScore: 61 } }],
    [
      'threes-and-fives, voluntary draw, per-hand rounding, play-out, highest double leads, random leader',
      {
        seats: 3,
        bots: 1,
        botStrategy: 'RANDOM',
        rules: {
          scoring: 'THREES_AND_FIVES',
          voluntaryDraw: true,
          dominoRounding: 'PER_HAND',
          playOut: true,
          leadRule: 'HIGHEST_DOUBLE',
          firstLeader: 'RANDOM',
          spinnerEndsCount: true,
          handSize: 5,
        },
      },
    ],
  ];

  it.each(cases)('%s: played to the target, stored, replayable', async (_name, input) => {
    const { matchId, bySeat, created } = await setUp(input);
    expect(created.mySeat).toBe(0);
    const { final, commands } = await driveMatch(bySeat, matchId, 7);
    expect(commands).toBeGreaterThan(0);
    expect(final.status).toBe('FINISHED');
    expect(final.turn).toBeNull();
    expect(final.winner).not.toBeNull();
    const target = final.rules.targetScore;
    const best = Math.max(...final.teams.map((t) => t.score));
    expect(final.winner!.score).toBe(best);
    expect(best).toBeGreaterThanOrEqual(target);
    // Every round is listed with its result; scores add up to the moves and bonuses.
    expect(final.rounds.length).toBeGreaterThanOrEqual(1);
    const total: number[] = new Array<number>(final.teams.length).fill(0);
    const teamOf = new Map(final.seats.map((s) => [s.index, s.team]));
    for (const r of final.rounds) {
      expect(r.status).toBe('FINISHED');
      expect(r.result).not.toBeNull();
      for (const mv of r.moves) total[teamOf.get(mv.seat)!] += mv.points;
      r.result!.awarded.forEach((a, t) => (total[t] += a));
    }
    expect(final.teams.map((t) => t.score)).toEqual(total);
    const seqs = final.rounds.flatMap((r) => r.moves.map((m) => m.seq));
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    await expectReplayable(app, matchId);
    // The record re-derives every deal from the revealed secrets and seeds, and every move with them.
    const record: unknown = await (await fetch(`${app.url}/matches/${matchId}/record`)).json();
    expect(verifyRecord(record).problems).toEqual([]);
    // A non-player reads the same public view.
    const spectator = await viewOf(app.anon, matchId);
    expect(spectator.mySeat).toBeNull();
    expect(spectator.myHand).toBeNull();
  });
});
