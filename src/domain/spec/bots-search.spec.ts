/** The stronger bots: the simulator's layout, the inference, determinism, and no peeking. */
import fc from 'fast-check';
import { buildBoard, countOf, endValue, ENDS } from '../board.js';
import { chooseBotAction, type BotStrategy } from '../bots/index.js';
import { expertSearch } from '../bots/expert.js';
import { endName, FastBoard } from '../bots/fast-board.js';
import { inferKnowledge } from '../bots/inference.js';
import { bitOf, maskOf, popcount, tilesOf, WITH_PIP } from '../bots/masks.js';
import { botRng } from '../bots/rng.js';
import { sampleWorld } from '../bots/sampler.js';
import { legalMoves } from '../legal.js';
import { apply, newMatch } from '../match.js';
import { resolveRules } from '../rules.js';
import { viewFor } from '../view.js';
import type { MatchState, Rules } from '../types.js';
import { ok, position, randomPolicy, t, testDeal } from './kit.js';

const SMALL = { nodes: 600 };

/** A match driven by a seeded random policy for `steps` actions (stopping early at a round's end). */
function midRound(seed: number, steps: number, seats = 2, partnerships = false, rules: Partial<Rules> = {}): MatchState {
  let s = newMatch({ seats, partnerships, rules: resolveRules(rules), deal: testDeal(seed, seats) }).state;
  const policy = randomPolicy(seed);
  for (let i = 0; i < steps; i++) {
    const next = ok(s, policy(s)).state;
    if (next.round.number !== s.round.number || next.status !== 'IN_PROGRESS') break;
    s = next;
  }
  return s;
}

describe('FastBoard (the search layout) agrees with board.ts', () => {
  it.each([
    ['FIRST_DOUBLE', false],
    ['FIRST_DOUBLE', true],
    ['NONE', false],
  ] as const)('open ends and C after every play of random rounds (%s, spinner ends count: %s)', (spinner, spinnerEndsCount) => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), (seed) => {
        let s = newMatch({ seats: 4, partnerships: true, rules: resolveRules({ spinner, spinnerEndsCount }), deal: testDeal(seed, 4) }).state;
        const policy = randomPolicy(seed);
        const fast = new FastBoard(spinner, spinnerEndsCount);
        for (let i = 0; i < 40 && s.round.number === 1 && s.status === 'IN_PROGRESS'; i++) {
          const a = policy(s);
          if (a.type === 'PLAY') {
            const e = a.end ? ENDS.indexOf(a.end) : 0;
            expect(fast.countIf(a.tile, e)).toBe(
              countOf(buildBoard([...boardPlays(s), { tile: a.tile, end: a.end ?? null }], spinner), { spinnerEndsCount }),
            );
            fast.place(a.tile, e);
          }
          s = ok(s, a).state;
          if (s.round.number !== 1) break;
          expect(fast.count()).toBe(countOf(s.round.board, { spinnerEndsCount }));
          for (let e = 0; e < 4; e++) expect(fast.endValue(e)).toBe(endValue(s.round.board, endName(e)));
          const copy = FastBoard.from(s.round.board, spinner, spinnerEndsCount);
          expect(copy.count()).toBe(fast.count());
        }
      }),
      { numRuns: 25 },
    );
  });
});

function boardPlays(s: MatchState) {
  return s.round.moves.filter((m) => m.type === 'PLAY').map((m) => ({ tile: m.tile!, end: m.end }));
}

/** Samples `n` worlds and checks each is a full, consistent deal of the unseen tiles. */
function samples(state: MatchState, seat: number, n: number) {
  const view = viewFor(state, seat);
  const k = inferKnowledge(view);
  const own = maskOf(view.hand ?? []);
  const rng = botRng(99);
  return Array.from({ length: n }, () => {
    const w = sampleWorld(k, own, rng);
    let all = 0;
    w.hands.forEach((h, s) => {
      expect(popcount(h)).toBe(view.handCounts[s]);
      expect(all & h).toBe(0);
      all |= h;
    });
    expect(w.boneyard).toHaveLength(view.round.boneyardCount);
    const yard = maskOf(w.boneyard);
    expect(all & yard).toBe(0);
    // A hand-built position may leave tiles out of play: the deal covers at most the unseen tiles.
    expect((all | yard) & ~own & ~k.unseen).toBe(0);
    return w;
  });
}

describe('inference: what passes and draws prove', () => {
  it('a pass: the passer holds nothing matching the open ends, in every sampled deal', () => {
    // Seat 1 led 5-3; seat 0 plays 5-0, leaving 0 and 3; seat 1 (no boneyard) passes.
    const s0 = position({
      hands: [
        ['5-0', '6-6', '3-1'],
        ['1-1', '2-2', '4-4', '6-1'],
      ],
      plays: [['5-3', null]],
      turn: 0,
    });
    const s = ok(s0, { type: 'PLAY', seat: 0, tile: t('5-0'), end: 'LEFT' }).state;
    expect(s.round.moves.at(-1)).toMatchObject({ type: 'PASS', seat: 1 });
    const cannot = WITH_PIP[0] | WITH_PIP[3];
    const k = inferKnowledge(viewFor(s, 0));
    expect(k.slots[1]).toHaveLength(4);
    for (const mask of k.slots[1]) expect(mask & cannot).toBe(cannot);
    for (const w of samples(s, 0, 300)) expect(w.hands[1] & cannot).toBe(0);
  });

  it('draws: the drawer held nothing matching, kept drawn tiles do not match either, a forced play is the last drawn tile', () => {
    // Seat 1 faces 5 and 4 with 1-1, 2-2: draws 1-0 and 2-0 (kept), then 5-1 (played at once).
    const s0 = position({
      rules: { handSize: 2 },
      hands: [
        ['4-0', '6-6'],
        ['1-1', '2-2'],
      ],
      plays: [['5-4', null]],
      boneyard: ['1-0', '2-0', '5-1', '6-0', '3-3'],
      turn: 1,
    });
    let s = ok(s0, { type: 'DRAW', seat: 1 }).state;
    s = ok(s, { type: 'DRAW', seat: 1 }).state;
    s = ok(s, { type: 'DRAW', seat: 1 }).state;
    s = ok(s, { type: 'PLAY', seat: 1, tile: t('5-1'), end: 'LEFT' }).state;
    expect(s.round.turn).toBe(0);
    const cannot = WITH_PIP[5] | WITH_PIP[4];
    const k = inferKnowledge(viewFor(s, 0));
    expect(k.slots[1]).toHaveLength(4);
    for (const mask of k.slots[1]) expect(mask & cannot).toBe(cannot);
    const worlds = samples(s, 0, 300);
    for (const w of worlds) expect(w.hands[1] & cannot).toBe(0);
    // The boneyard may hold what seat 1 cannot: some deal puts a 5 or a 4 there.
    expect(worlds.some((w) => (maskOf(w.boneyard) & cannot) !== 0)).toBe(true);
  });

  it('a tile drawn after a pass or draw is not bound by what was proved before it', () => {
    const s0 = position({
      rules: { handSize: 2 },
      hands: [
        ['4-0', '6-6', '0-0', '6-0'],
        ['1-1', '2-2'],
      ],
      plays: [['5-4', null]],
      boneyard: ['1-0', '5-1', '6-3', '3-1', '2-1'],
      turn: 1,
    });
    let s = ok(s0, { type: 'DRAW', seat: 1 }).state; // 1-0 kept: no 5 or 4
    s = ok(s, { type: 'DRAW', seat: 1 }).state; // 5-1 forced
    s = ok(s, { type: 'PLAY', seat: 1, tile: t('5-1'), end: 'LEFT' }).state; // ends 1 and 4
    s = ok(s, { type: 'PLAY', seat: 0, tile: t('4-0'), end: 'RIGHT' }).state; // ends 1 and 0
    s = ok(s, { type: 'PLAY', seat: 1, tile: t('1-0'), end: 'LEFT' }).state; // ends 0 and 0
    s = ok(s, { type: 'PLAY', seat: 0, tile: t('0-0'), end: 'LEFT' }).state; // ends 0 (double) and 0
    for (let i = 0; i < 3; i++) s = ok(s, { type: 'DRAW', seat: 1 }).state;
    // Seat 1 (1-1, 2-2) has no 0: draws 6-3 (kept) and 3-1 (kept), then 2-1 (kept), then passes.
    expect(s.round.moves.slice(-4).map((m) => m.type)).toEqual(['DRAW', 'DRAW', 'DRAW', 'PASS']);
    const k = inferKnowledge(viewFor(s, 0));
    expect(k.slots[1]).toHaveLength(5);
    // Every slot is bound by "no 0"; only the two dealt tiles are also bound by "no 5, no 4".
    for (const mask of k.slots[1]) expect(mask & WITH_PIP[0]).toBe(WITH_PIP[0]);
    expect(k.slots[1].filter((m) => (m & bitOf(t('5-5'))) !== 0)).toHaveLength(2);
  });

  it('with voluntary drawing, a draw proves nothing', () => {
    const s0 = position({
      rules: { handSize: 2, voluntaryDraw: true },
      hands: [
        ['4-0', '6-6'],
        ['1-1', '5-2'],
      ],
      plays: [['5-4', null]],
      boneyard: ['1-0', '3-3'],
      turn: 1,
    });
    const s = ok(ok(s0, { type: 'DRAW', seat: 1 }).state, { type: 'PLAY', seat: 1, tile: t('5-2'), end: 'LEFT' }).state;
    const k = inferKnowledge(viewFor(s, 0));
    expect(k.slots[1]).toEqual([0, 0]);
  });
});

describe('no peeking: the bots decide from their view alone', () => {
  /** The same position with the hidden tiles (other hands and the boneyard) dealt differently. */
  function reshuffled(s: MatchState, seat: number): MatchState {
    const hidden = s.round.hands.flatMap((h, i) => (i === seat ? [] : h)).concat(s.round.boneyard);
    const rotated = hidden.slice(3).concat(hidden.slice(0, 3));
    let at = 0;
    const hands = s.round.hands.map((h, i) => (i === seat ? h : tilesOf(maskOf(rotated.slice(at, (at += h.length))))));
    return { ...s, round: { ...s.round, hands, boneyard: rotated.slice(at) } };
  }

  it.each([
    [2, false],
    [4, true],
  ])('identical choices on states differing only in hidden tiles (%i seats)', (seats, partnerships) => {
    for (let seed = 1; seed <= 12; seed++) {
      const s1 = midRound(seed, 2 + (seed % 7), seats, partnerships);
      const seat = s1.round.turn;
      const s2 = reshuffled(s1, seat);
      expect(s2.round.hands).not.toEqual(s1.round.hands);
      expect(viewFor(s2, seat)).toEqual(viewFor(s1, seat));
      for (const strategy of ['expert', 'defensive', 'greedy', 'random'] as BotStrategy[]) {
        expect(chooseBotAction(viewFor(s2, seat), strategy, seed, SMALL)).toEqual(chooseBotAction(viewFor(s1, seat), strategy, seed, SMALL));
      }
      const a = expertSearch(viewFor(s1, seat), seed, SMALL);
      const b = expertSearch(viewFor(s2, seat), seed, SMALL);
      expect(b.values).toEqual(a.values);
    }
  });
});

describe('the expert search', () => {
  it('is deterministic given its seed and node budget, also after the view is copied (as to a worker)', () => {
    for (let seed = 1; seed <= 8; seed++) {
      const s = midRound(seed, 3);
      const view = viewFor(s, s.round.turn);
      const first = expertSearch(view, seed, SMALL);
      expect(expertSearch(structuredClone(view), seed, SMALL)).toEqual(first);
      if (view.legalMoves.length > 1) expect(first.nodes).toBeGreaterThanOrEqual(SMALL.nodes);
    }
  });

  it('stops at the time bound from the clock it is given (a fake one here), after at least two deals', () => {
    const s = midRound(3, 0);
    let clock = 0;
    const r = expertSearch(viewFor(s, s.round.turn), 1, { nodes: 1e9, timeMs: 10, now: () => clock++ });
    expect(r.deals).toBeGreaterThanOrEqual(2);
    expect(r.deals).toBeLessThan(12);
  });

  it('takes the play that wins the match', () => {
    // 245 to 0: 6-1 on the 6 leaves 1 + 4 = 5, reaching 250; 4-3 on the 4 scores nothing.
    const s = position({
      hands: [
        ['6-1', '4-3', '5-5'],
        ['0-0', '2-2', '3-3'],
      ],
      plays: [['6-4', null]],
      scores: [245, 0],
      turn: 0,
    });
    expect(chooseBotAction(viewFor(s, 0), 'expert', 1, SMALL)).toEqual({ type: 'PLAY', seat: 0, tile: t('6-1'), end: 'LEFT' });
  });

  it.each<[string, number, boolean, Partial<Rules>]>([
    ['2 players', 2, false, {}],
    ['3 players', 3, false, {}],
    ['partnerships', 4, true, {}],
    ['no spinner, a reserve of 2', 2, false, { spinner: 'NONE', reserve: 2 }],
    ['voluntary draws, spinner ends count', 2, false, { voluntaryDraw: true, spinnerEndsCount: true }],
    ['highest double leads, fives and threes, play out', 4, false, { leadRule: 'HIGHEST_DOUBLE', scoring: 'FIVES_AND_THREES', playOut: true }],
  ])('plays whole matches legally (%s) against the other strategies', (_name, seats, partnerships, rules) => {
    const strategies: BotStrategy[] = ['expert', 'defensive', 'greedy', 'random'];
    let state = newMatch({ seats, partnerships, rules: resolveRules({ targetScore: 100, ...rules }), deal: testDeal(seats * 31, seats) }).state;
    for (let i = 0; state.status === 'IN_PROGRESS'; i++) {
      expect(i).toBeLessThan(5000);
      const seat = state.round.turn;
      const view = viewFor(state, seat);
      const action = chooseBotAction(view, strategies[seat % strategies.length], i, { nodes: 200 });
      if (action.type === 'PLAY') expect(legalMoves(state, seat)).toContainEqual({ tile: action.tile, end: action.end ?? null });
      const res = apply(state, action);
      expect(res.ok).toBe(true);
      if (res.ok) state = res.state;
    }
    expect(state.winner).not.toBeNull();
  });
});

// The masks are the search's vocabulary: keep them honest.
describe('tile masks', () => {
  it('round-trip tiles and group them by pip', () => {
    const h = [t('6-6'), t('5-0'), t('1-1')];
    expect(tilesOf(maskOf(h))).toEqual([t('1-1'), t('5-0'), t('6-6')]);
    expect(popcount(WITH_PIP[6])).toBe(7);
    expect(WITH_PIP[5] & bitOf(t('5-0'))).not.toBe(0);
  });
});
