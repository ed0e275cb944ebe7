import type { Action, BotStrategy, MatchView } from '../../domain/index.js';

/** The port through which BotsService gets a bot's move: the caller never runs a search itself. */
export interface BotMover {
  choose(view: MatchView, strategy: BotStrategy, seed: number): Promise<Action>;
}

export const BOT_MOVER = Symbol('BOT_MOVER');
