/** The rules engine's public API. Pure functions over plain JSON state; see rules.md. */
export * from './types.js';
export { ALL_TILES, normalizeTile, sameTile, tileKey, tileIndex, pipCount, isValidTile, isDouble } from './tiles.js';
export { DEFAULT_RULES, RULE_KEYS, pickRules, resolveRules, validateSetup, type AssertEmpty, type RuleKey } from './rules.js';
export { EMPTY_BOARD, ENDS, openEnds, countOf, endCounts, placeTile, buildBoard, endValue, fits, type EndCount } from './board.js';
export { playScore, round5, dominoBonus, blockedBonus } from './scoring.js';
export { dealRound, lotLeader, lotRank, bestDraw } from './round.js';
export {
  CHAIN_CHECKPOINT_ROUNDS,
  DEAL_CHAIN_LENGTH,
  DEAL_LABEL,
  chainCheckpoints,
  chainSecret,
  chainSecretHex,
  chainSecretHexFrom,
  dealCommitment,
  deckFromSecret,
  defaultSeatSeed,
  hashTimes,
  isClientSeed,
} from './fair-deal.js';
export { botSeed } from './bots/seed.js';
export { legalMoves, canDraw } from './legal.js';
export { newMatch, apply, teamsFor, withRound1Leader, round1LeaderProblems } from './match.js';
export { viewFor } from './view.js';
export { redactMove } from './redact.js';
export { replayMatch, actionsFromMoves } from './replay.js';
export {
  BOT_STRATEGIES,
  chooseBotAction,
  DEFAULT_SEARCH_NODES,
  expertSearch,
  SEARCH_TIME_SHARE,
  type BotStrategy,
  type SearchBudget,
} from './bots/index.js';
