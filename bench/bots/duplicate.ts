/**
 * Duplicate matches between two bot strategies, with no server: the pure engine and the bots.
 *
 * The unit is a whole match to the default target (250): a deal is a numbered deal source, played twice
 * with the seats swapped (strategy A on the seats B had), so both sides meet the same rounds'
 * shuffles and the luck of the deal cancels out of the pair. A pair scores 1 when A wins both,
 * 0.5 when each side wins once, 0 when B wins both; the win rate is the mean pair score.
 */
import { performance } from 'node:perf_hooks';
import {
  apply,
  botSeed,
  chooseBotAction,
  DEAL_CHAIN_LENGTH,
  newMatch,
  resolveRules,
  viewFor,
  type BotStrategy,
  type DealSource,
  type SearchBudget,
} from '../../src/domain/index.js';

/** One hash chain for every bench match (its walk is paid once); a deal number picks the match id and client seeds. */
const ANCHOR = { round: DEAL_CHAIN_LENGTH, secret: 'b0'.repeat(32) };
const dealOf = (seats: number, n: number): DealSource => ({
  matchId: `bench-bots-${n}`,
  clientSeeds: Array.from({ length: seats }, (_, s) => `seat-${s}-${n}`),
  anchor: ANCHOR,
});

export interface PairingTask {
  readonly a: BotStrategy;
  readonly b: BotStrategy;
  readonly partnerships: boolean;
  readonly seeds: readonly number[];
  readonly budget: SearchBudget;
}

export interface DealResult {
  /** A's pair score: 0, 0.5 or 1. */
  readonly score: number;
  /** A's points minus B's, summed over the two matches. */
  readonly margin: number;
}

export interface PairingResult {
  readonly deals: DealResult[];
  /** Milliseconds of every decision A made (forced draws and single options included). */
  readonly moveMs: number[];
  /** Milliseconds of A's decisions among two or more legal plays. */
  readonly choiceMs: number[];
  /**
   * CPU milliseconds of the same decisions, from the process's CPU clock: a thread's own time
   * when it is the only one working (one worker), so it shows what a move costs apart from the
   * waits of a shared machine. Meaningless with several workers.
   */
  readonly cpuMs: number[];
}

/** One match; `aSeats` says which seats play strategy A. Returns A's win and points margin. */
function playMatch(task: PairingTask, seed: number, aSeats: (seat: number) => boolean, out: PairingResult): { won: boolean; margin: number } {
  const seats = task.partnerships ? 4 : 2;
  const deal = dealOf(seats, seed);
  let state = newMatch({ seats, partnerships: task.partnerships, rules: resolveRules(null), deal }).state;
  for (let guard = 0; state.status === 'IN_PROGRESS'; guard++) {
    if (guard > 20_000) throw new Error(`match ${seed} does not end`);
    const seat = state.round.turn;
    const isA = aSeats(seat);
    const strategy = isA ? task.a : task.b;
    const moveSeed = botSeed(deal, state.lastSeq);
    const cpu = process.cpuUsage();
    const started = performance.now();
    const view = viewFor(state, seat);
    const action = chooseBotAction(view, strategy, moveSeed, task.budget);
    const ms = performance.now() - started;
    if (isA) {
      const used = process.cpuUsage(cpu);
      out.cpuMs.push((used.user + used.system) / 1000);
      out.moveMs.push(ms);
      if (view.legalMoves.length > 1) out.choiceMs.push(ms);
    }
    const res = apply(state, action);
    if (!res.ok) throw new Error(`${strategy} made an illegal move: ${res.violation.code}`);
    state = res.state;
  }
  const aTeam = state.teamOfSeat.findIndex((_, s) => aSeats(s));
  const bTeam = 1 - aTeam;
  return { won: state.winner === aTeam, margin: state.scores[aTeam] - state.scores[bTeam] };
}

export function runPairing(task: PairingTask): PairingResult {
  const out: PairingResult = { deals: [], moveMs: [], choiceMs: [], cpuMs: [] };
  // A on the even seats (seat 0, or partners 0 and 2), then on the odd ones: the seats swapped.
  for (const seed of task.seeds) {
    const first = playMatch(task, seed, (s) => s % 2 === 0, out);
    const second = playMatch(task, seed, (s) => s % 2 === 1, out);
    out.deals.push({ score: ((first.won ? 1 : 0) + (second.won ? 1 : 0)) / 2, margin: first.margin + second.margin });
  }
  return out;
}
