import type { Action, BotStrategy, MatchView } from '../../domain/index.js';

/** One decision asked of a bot worker. */
export interface BotJob {
  id: number;
  view: MatchView;
  strategy: BotStrategy;
  seed: number;
  nodes: number;
  timeMs: number;
}

export type BotJobResult = { id: number; action: Action } | { id: number; error: string };
