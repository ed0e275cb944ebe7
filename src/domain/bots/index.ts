import type { Action, MatchView } from '../types.js';
import { defensiveAction } from './defensive.js';
import { expertAction, type SearchBudget } from './expert.js';
import { greedyAction } from './greedy.js';
import { randomAction } from './random.js';

export type BotStrategy = 'random' | 'greedy' | 'defensive' | 'expert';

export const BOT_STRATEGIES: readonly BotStrategy[] = ['random', 'greedy', 'defensive', 'expert'];

export type { SearchBudget } from './expert.js';
export { DEFAULT_SEARCH_NODES, expertSearch, SEARCH_TIME_SHARE } from './expert.js';

/**
 * A bot's action from its own view only. `seed` drives the random bot and the expert's sampling
 * (greedy and defensive are deterministic); `budget` bounds the expert's search.
 */
export function chooseBotAction(view: MatchView, strategy: BotStrategy, seed: number, budget?: SearchBudget): Action {
  switch (strategy) {
    case 'greedy':
      return greedyAction(view);
    case 'defensive':
      return defensiveAction(view);
    case 'expert':
      return expertAction(view, seed, budget);
    case 'random':
      return randomAction(view, seed);
  }
}
