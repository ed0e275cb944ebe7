import type { Action, MatchView } from '../types.js';
import { greedyAction } from './greedy.js';
import { randomAction } from './random.js';

export type BotStrategy = 'random' | 'greedy';

/** A bot's action from its own view only. `seed` drives the random bot (greedy is deterministic). */
export function chooseBotAction(view: MatchView, strategy: BotStrategy, seed: number): Action {
  return strategy === 'greedy' ? greedyAction(view) : randomAction(view, seed);
}
