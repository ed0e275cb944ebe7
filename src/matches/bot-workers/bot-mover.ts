import type { Action, BotStrategy, MatchView } from '../../domain/index.js';

/** The port through which BotsService gets a bot's move: the caller never runs a search itself. */
export interface BotMover {
  /**
   * `owner` names who waits for this move (the match's first human): searches queued for the
   * worker pool are served in turns by owner, so one player's many bot matches cannot hold up
   * everyone else's bots.
   */
  choose(view: MatchView, strategy: BotStrategy, seed: number, owner: string): Promise<Action>;
}

export const BOT_MOVER = Symbol('BOT_MOVER');
