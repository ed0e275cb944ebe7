/**
 * Engine benchmark: random complete rounds (4 players in partnerships, then 2 players) with a cheap
 * random policy over legalMoves/canDraw/apply, against the fair deal alone, in the same run.
 * Prints plain lines: rounds/s, µs per move, deals/s, the cost of walking a match's hash chain
 * and of revealing a round's secret from the stored checkpoints,
 * and "one 4-player round costs N deals".
 *
 * Play and deal are measured apart (docs/fair-deals.md: the deal costs HMAC-SHA256 blocks, far
 * more than a round's play): every timed round is one the chain deals last (round N), whose end
 * finishes the match instead of dealing another, so the play figures hold no deal.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/engine.js
 */
import { performance } from 'node:perf_hooks';
import {
  apply,
  canDraw,
  chainCheckpoints,
  chainSecret,
  chainSecretHexFrom,
  DEAL_CHAIN_LENGTH,
  dealRound,
  legalMoves,
  newMatch,
  resolveRules,
} from '../src/domain/index.js';
import type { DealSource, MatchState } from '../src/domain/index.js';
import { report } from './support/result.js';

/** A cheap seeded policy RNG (xorshift32): the bench measures the engine, not the policy. */
function policyRng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}

interface Tally {
  rounds: number;
  moves: number;
}

/** One chain for every bench match: its walk is paid once, then each deal costs its stream alone. */
const ANCHOR = { round: DEAL_CHAIN_LENGTH, secret: '5a'.repeat(32) };
const dealOf = (seats: number, i: number): DealSource => ({
  matchId: `bench-${i}`,
  clientSeeds: Array.from({ length: seats }, (_, s) => `seat-${s}-${i}`),
  anchor: ANCHOR,
});

/** Dealt rounds, relabelled as round N so that their end deals nothing (see above). */
function dealtRounds(seats: number, partnerships: boolean, n: number): MatchState[] {
  const rules = resolveRules({ targetScore: 10000 });
  return Array.from({ length: n }, (_, i) => {
    const s = newMatch({ seats, partnerships, rules, deal: dealOf(seats, i) }).state;
    return { ...s, round: { ...s.round, number: DEAL_CHAIN_LENGTH } };
  });
}

const POOL = 2048;
const pools = new Map<number, MatchState[]>([
  [4, dealtRounds(4, true, POOL)],
  [2, dealtRounds(2, false, POOL)],
]);

/** Plays whole rounds from the pool until `ms` elapse. */
function playRounds(seats: number, ms: number, seed: number): Tally & { elapsed: number } {
  const pool = pools.get(seats)!;
  const next = policyRng(seed);
  let at = seed;
  let state = pool[at++ % POOL];
  let rounds = 0;
  let moves = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let k = 0; k < 256; k++) {
      const seat = state.round.turn;
      const options = legalMoves(state, seat);
      const action =
        options.length > 0
          ? { type: 'PLAY' as const, seat, ...options[next() % options.length] }
          : canDraw(state, seat)
            ? { type: 'DRAW' as const, seat }
            : null;
      if (action === null) throw new Error('stuck: no move and no draw');
      const res = apply(state, action);
      if (!res.ok) throw new Error(`refused: ${res.violation.code}`);
      moves++;
      if (res.state.status === 'FINISHED') {
        rounds++;
        state = pool[at++ % POOL];
      } else state = res.state;
    }
    elapsed = performance.now() - start;
  }
  return { rounds, moves, elapsed };
}

/** Shuffle-and-deal alone (the leader is given, so no lot is drawn), on an already walked chain. */
function deals(seats: number, ms: number): { deals: number; elapsed: number } {
  const rules = resolveRules(null);
  let n = 0;
  let sink = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let k = 0; k < 64; k++) {
      sink += dealRound(1 + (n % DEAL_CHAIN_LENGTH), dealOf(seats, n), seats, rules, 0).boneyard.length;
      n++;
    }
    elapsed = performance.now() - start;
  }
  if (sink < 0) console.log(sink);
  return { deals: n, elapsed };
}

/** Walking a new match's chain from S_N to S_1 (once per match and process: the walk is cached). */
function chainWalkMs(walks: number): number {
  const start = performance.now();
  for (let i = 0; i < walks; i++) chainSecret({ round: DEAL_CHAIN_LENGTH, secret: (i + 1).toString(16).padStart(64, '0') }, 1);
  return (performance.now() - start) / walks;
}

/** Revealing a finished round's secret (round 1–10) of a match not walked yet: from its checkpoints, and from S_N. */
function revealUs(matches: number): { fromCheckpoints: number; fromHead: number } {
  const heads = Array.from({ length: matches }, (_, i) => ({ round: DEAL_CHAIN_LENGTH, secret: (i + 1_000_001).toString(16).padStart(64, '0') }));
  const checkpoints = heads.map((h) => chainCheckpoints(h));
  let start = performance.now();
  for (let i = 0; i < matches; i++) chainSecretHexFrom(heads[i], checkpoints[i], 1 + (i % 10));
  const fromCheckpoints = ((performance.now() - start) * 1000) / matches;
  // Other heads, so that no walk is answered from the cache of walked chains.
  const others = heads.map((_, i) => ({ round: DEAL_CHAIN_LENGTH, secret: (i + 2_000_001).toString(16).padStart(64, '0') }));
  start = performance.now();
  for (let i = 0; i < matches; i++) chainSecretHexFrom(others[i], null, 1 + (i % 10));
  return { fromCheckpoints, fromHead: ((performance.now() - start) * 1000) / matches };
}

const MS = Number(process.env.BENCH_MS ?? 2000);
const SLICES = 20;

// Warm up every path so the JIT has settled before measuring.
playRounds(4, 300, 1);
playRounds(2, 300, 2);
deals(4, 300);

// The three measurements run interleaved in short slices (each ~MS in total), so a machine whose
// load changes during the run slows all of them alike and the ratios stay meaningful.
const four = { rounds: 0, moves: 0, elapsed: 0 };
const two = { rounds: 0, moves: 0, elapsed: 0 };
const dealt = { deals: 0, elapsed: 0 };
for (let i = 0; i < SLICES; i++) {
  const a = playRounds(4, MS / SLICES, 11 + i);
  const b = playRounds(2, MS / SLICES, 101 + i);
  const c = deals(4, MS / SLICES);
  four.rounds += a.rounds;
  four.moves += a.moves;
  four.elapsed += a.elapsed;
  two.rounds += b.rounds;
  two.moves += b.moves;
  two.elapsed += b.elapsed;
  dealt.deals += c.deals;
  dealt.elapsed += c.elapsed;
}

const perSec = (n: number, ms: number): number => (n * 1000) / ms;
const round4 = perSec(four.rounds, four.elapsed);
const round2 = perSec(two.rounds, two.elapsed);
const dealsPerSec = perSec(dealt.deals, dealt.elapsed);
console.log(
  `4 players: ${Math.round(round4)} rounds/s, ${((four.elapsed * 1000) / four.moves).toFixed(3)} µs per move (${(four.moves / four.rounds).toFixed(1)} moves per round)`,
);
console.log(
  `2 players: ${Math.round(round2)} rounds/s, ${((two.elapsed * 1000) / two.moves).toFixed(3)} µs per move (${(two.moves / two.rounds).toFixed(1)} moves per round)`,
);
console.log(`fair deal (HMAC stream + shuffle): ${Math.round(dealsPerSec)} deals/s, ${(1e6 / dealsPerSec).toFixed(3)} µs per deal`);
console.log(`hash-chain walk S_N → S_1 (once per match and process): ${chainWalkMs(20).toFixed(2)} ms`);
const reveal = revealUs(300);
console.log(
  `a finished round's dealSecret, match not walked yet: ${reveal.fromCheckpoints.toFixed(1)} µs from its checkpoints, ` +
    `${reveal.fromHead.toFixed(0)} µs from S_N (ratio ${(reveal.fromHead / reveal.fromCheckpoints).toFixed(0)})`,
);
console.log(`one 4-player round costs ${(dealsPerSec / round4).toFixed(1)} deals`);
console.log(`one 2-player round costs ${(dealsPerSec / round2).toFixed(1)} deals`);
report({ rounds4PerSec: round4, rounds2PerSec: round2, dealsPerSec, usPerMove4: (four.elapsed * 1000) / four.moves });
