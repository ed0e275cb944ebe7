/**
 * The verifier on records of matches the engine played: it accepts them whole, and names what a
 * single tampered fact breaks (the e2e runs it on the server's own records).
 */
import { apply, dealCommitment, newMatch, type MatchState, type RoundState } from '../domain/index.js';
import { config, randomPolicy } from '../domain/spec/kit.js';
import { buildMatchRecordV2, type MatchRecordV2 } from './record-format-v2.js';
import type { RecordSource } from './record-format.js';
import { verifyRecord } from './verify-record.js';

/** A 2-player match to 100 played by the seeded random policy, exported as a version-2 record. */
function playedRecord(n: number, resignAfter?: number): MatchRecordV2 {
  const cfg = config(2, false, { targetScore: 100 }, 500 + n);
  let state: MatchState = newMatch(cfg).state;
  const policy = randomPolicy(n);
  const finished: RoundState[] = [];
  const starters = [state.round.starter];
  for (let i = 0; state.status === 'IN_PROGRESS' && i !== resignAfter; i++) {
    const res = apply(state, policy(state));
    if (!res.ok) throw new Error(res.violation.code);
    for (const e of res.events) if (e.type === 'ROUND_ENDED') finished.push(e.finalRound);
    state = res.state;
    if (state.round.status === 'IN_PROGRESS' && state.round.number > starters.length) starters.push(state.round.starter);
  }
  const resigned = state.status === 'IN_PROGRESS';
  const live = resigned ? [state.round] : [];
  const src: RecordSource = {
    id: cfg.deal.matchId,
    createdAt: new Date(0),
    finishedAt: new Date(1000),
    seatCount: 2,
    partnerships: false,
    rules: cfg.rules,
    winnerTeam: resigned ? 1 : state.winner!,
    seats: [0, 1].map((index) => ({ index, team: index, isBot: false, botStrategy: null, playerId: `p${index}`, playerName: `p${index}` })),
    scores: [...state.scores],
    rounds: [...finished, ...live].map((r) => ({ number: r.number, starter: r.starter, status: r.status, result: r.result })),
    moves: [...finished, ...live].flatMap((r) => r.moves.map((m) => ({ ...m }))),
    cutShortHands: resigned ? state.round.hands.map((h) => [...h]) : null,
    forfeit: resigned ? { cause: 'RESIGNED', seat: 0 } : null,
  };
  return buildMatchRecordV2(src, {
    chainSecret: cfg.deal.anchor.secret,
    dealCommitment: dealCommitment(cfg.deal.anchor),
    clientSeeds: [...cfg.deal.clientSeeds],
  });
}

describe('verifyRecord', () => {
  it.each([1, 2, 3, 4, 5])('accepts a played match (%i)', (n) => {
    const rec = playedRecord(n);
    expect(rec.rounds.length).toBeGreaterThan(0);
    expect(verifyRecord(rec)).toMatchObject({ ok: true, problems: [] });
  });

  it.each(['RANDOM', 'GREEDY', 'DEFENSIVE', 'EXPERT'])('accepts a seat played by a %s bot', (strategy) => {
    const rec = playedRecord(8);
    Object.assign(rec.seats[1], { isBot: true, botStrategy: strategy, player: null });
    expect(verifyRecord(rec).problems).toEqual([]);
  });

  it("notes a bot seat whose seed is not the seat's default seed (a human's seed is theirs to choose)", () => {
    const rec = playedRecord(8);
    expect(verifyRecord(rec).notes).toEqual([]);
    Object.assign(rec.seats[1], { isBot: true, botStrategy: 'GREEDY', player: null });
    const verdict = verifyRecord(rec);
    expect(verdict.ok).toBe(true);
    expect(verdict.notes).toEqual([expect.stringContaining("seat 1 (a bot): its client seed is not the seat's default seed")]);
  });

  it('accepts a match cut short by a resignation, its last round unfinished', () => {
    const rec = playedRecord(6, 30);
    expect(rec.ending).toBe('RESIGNED');
    expect(rec.rounds.at(-1)!.result!.end).toBe('RESIGNED');
    expect(verifyRecord(rec).problems).toEqual([]);
  });

  it('accepts a forfeit on time, and one whose seat was not recorded', () => {
    const rec = playedRecord(6, 30);
    expect(rec.forfeit).toEqual({ cause: 'RESIGNED', seat: 0 });
    expect(verifyRecord({ ...rec, forfeit: { cause: 'TIMED_OUT', seat: 0 } }).problems).toEqual([]);
    expect(verifyRecord({ ...rec, forfeit: { cause: 'RESIGNED', seat: null } }).problems).toEqual([]);
  });

  it.each<[string, (rec: MatchRecordV2) => void, RegExp]>([
    ['the forfeiting seat', (rec) => (rec.forfeit = { cause: 'RESIGNED', seat: 1 }), /seat 1's side forfeited: the best-placed other side is 0/],
    ['a forfeit seat that does not exist', (rec) => (rec.forfeit = { cause: 'RESIGNED', seat: 7 }), /forfeit seat 7/],
    ['the forfeit cause', (rec) => (rec.forfeit = { cause: 'BORED' as never, seat: 0 }), /forfeit cause "BORED"/],
    ['a hand shown for the cut-short round', (rec) => rec.rounds.at(-1)!.result!.hands[0].tiles.pop(), /UNFINISHED.*result/],
    ['a bonus awarded for the cut-short round', (rec) => (rec.rounds.at(-1)!.result!.awarded[0] = 5), /UNFINISHED.*result/],
    ['the cut-short round’s result dropped', (rec) => (rec.rounds.at(-1)!.result = null), /UNFINISHED.*result/],
    ['a draw of the cut-short round hidden', (rec) => (findMove({ ...rec, rounds: [rec.rounds.at(-1)!] }, 'DRAW').tile = null), /tile/],
  ])('rejects a resigned record with one fact changed: %s', (_what, tamper, problem) => {
    const rec = playedRecord(6, 30);
    tamper(rec);
    const verdict = verifyRecord(rec);
    expect(verdict.ok).toBe(false);
    expect(verdict.problems.join('\n')).toMatch(problem);
  });

  const findMove = (rec: MatchRecordV2, type: string) => {
    for (const r of rec.rounds) for (const m of r.moves) if (m.type === type) return m;
    throw new Error(`no ${type}`);
  };

  it.each<[string, (rec: MatchRecordV2) => void, RegExp]>([
    ['a forfeit added to a played-out match', (rec) => (rec.forfeit = { cause: 'TIMED_OUT', seat: 1 }), /forfeit .* ended TARGET_REACHED/],
    ['a play’s points', (rec) => (findMove(rec, 'PLAY').points += 5), /points/],
    [
      'a drawn tile',
      (rec) => {
        const d = findMove(rec, 'DRAW');
        d.tile = d.tile!.high === 6 && d.tile!.low === 6 ? { high: 0, low: 0 } : { high: 6, low: 6 };
      },
      /tile/,
    ],
    ['a round’s starter', (rec) => (rec.rounds[0].starter = 1 - rec.rounds[0].starter), /starter/],
    ['a revealed hand', (rec) => rec.rounds[0].result!.hands.find((h) => h.tiles.length > 0)!.tiles.pop(), /result/],
    ['the final scores', (rec) => (rec.finalScores[0] += 1), /final scores/],
    ['a play’s tile', (rec) => (rec.rounds[0].moves[0].tile = { high: 9, low: 9 }), /illegal|tile/],
    ['the version', (rec) => ((rec as { version: number }).version = 1), /version-2/],
    [
      'a bot strategy in version 1’s lower case',
      (rec) => Object.assign(rec.seats[1], { isBot: true, botStrategy: 'greedy', player: null }),
      /botStrategy/,
    ],
    ['the shape itself', (rec) => ((rec as { seats: unknown }).seats = null), /malformed/],
    [
      'the seats of the sides',
      (rec) =>
        (rec.teams = [
          { index: 0, seats: [1] },
          { index: 1, seats: [0] },
        ]),
      /teams .* but the seats make/,
    ],
    [
      'the side of each seat',
      (rec) => ([rec.seats[0].team, rec.seats[1].team] = [rec.seats[1].team, rec.seats[0].team]),
      /seat 0: index 0 and team 1, expected 0 and 0/,
    ],
    ['the ending', (rec) => (rec.ending = 'DEALS_EXHAUSTED'), /ending "DEALS_EXHAUSTED", but the moves end the match TARGET_REACHED/],
  ])('rejects a record with one fact changed: %s', (_what, tamper, problem) => {
    const rec = playedRecord(7);
    tamper(rec);
    const verdict = verifyRecord(rec);
    expect(verdict.ok).toBe(false);
    expect(verdict.problems.join('\n')).toMatch(problem);
  });
});
