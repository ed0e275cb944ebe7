/**
 * Engine benchmark: random complete rounds (4 players in partnerships, then 2 players) with a cheap
 * random policy over legalMoves/canDraw/apply, against shuffle-and-deal alone, in the same run.
 * Prints plain lines: rounds/s, µs per move, deals/s and "one 4-player round costs N deals".
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/engine.js
 */
import { performance } from 'node:perf_hooks';
import { apply, canDraw, dealRound, legalMoves, newMatch, resolveRules } from '../src/domain/index.js';
import type { MatchConfig, MatchState } from '../src/domain/index.js';

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

/** Plays until `ms` elapse; a finished match is replaced by a fresh one (its deal counts too). */
function playRounds(seats: number, partnerships: boolean, ms: number, seed: number): Tally & { elapsed: number } {
  const rules = resolveRules({ targetScore: 10000 });
  const next = policyRng(seed);
  let matchSeed = seed;
  const fresh = (): MatchState => newMatch({ seats, partnerships, rules, seed: matchSeed++ >>> 0 } satisfies MatchConfig).state;
  let state = fresh();
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
      for (const e of res.events) if (e.type === 'ROUND_ENDED') rounds++;
      state = res.state.status === 'FINISHED' ? fresh() : res.state;
    }
    elapsed = performance.now() - start;
  }
  return { rounds, moves, elapsed };
}

function deals(seats: number, ms: number): { deals: number; elapsed: number } {
  const rules = resolveRules(null);
  let n = 0;
  let sink = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let k = 0; k < 1024; k++) {
      // Shuffle and deal alone: the leader is given, so no lot is drawn.
      sink += dealRound(1, (n * 2654435761) >>> 0, seats, rules, 0).boneyard.length;
      n++;
    }
    elapsed = performance.now() - start;
  }
  if (sink < 0) console.log(sink);
  return { deals: n, elapsed };
}

const MS = Number(process.env.BENCH_MS ?? 2000);
const SLICES = 20;

// Warm up every path so the JIT has settled before measuring.
playRounds(4, true, 300, 1);
playRounds(2, false, 300, 2);
deals(4, 300);

// The three measurements run interleaved in short slices (each ~MS in total), so a machine whose
// load changes during the run slows all of them alike and the ratios stay meaningful.
const four = { rounds: 0, moves: 0, elapsed: 0 };
const two = { rounds: 0, moves: 0, elapsed: 0 };
const dealt = { deals: 0, elapsed: 0 };
for (let i = 0; i < SLICES; i++) {
  const a = playRounds(4, true, MS / SLICES, 11 + i);
  const b = playRounds(2, false, MS / SLICES, 101 + i);
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
console.log(`shuffle-and-deal: ${Math.round(dealsPerSec)} deals/s, ${(1e6 / dealsPerSec).toFixed(3)} µs per deal`);
console.log(`one 4-player round costs ${(dealsPerSec / round4).toFixed(1)} deals`);
console.log(`one 2-player round costs ${(dealsPerSec / round2).toFixed(1)} deals`);
