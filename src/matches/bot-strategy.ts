import { BOT_STRATEGIES, type BotStrategy as EngineBotStrategy } from '../domain/index.js';
import { BotStrategy } from './models/enums.js';

/*
 * A bot's strategy is spelled two ways: upper case in GraphQL (and the match record), lower case
 * in the engine and in the database. These are the only places one becomes the other.
 */

const TO_ENGINE: Readonly<Record<BotStrategy, EngineBotStrategy>> = {
  [BotStrategy.RANDOM]: 'random',
  [BotStrategy.GREEDY]: 'greedy',
  [BotStrategy.DEFENSIVE]: 'defensive',
  [BotStrategy.EXPERT]: 'expert',
};

export function engineBotStrategy(strategy: BotStrategy): EngineBotStrategy {
  return TO_ENGINE[strategy];
}

export function apiBotStrategy(strategy: EngineBotStrategy): BotStrategy {
  return (Object.keys(TO_ENGINE) as BotStrategy[]).find((k) => TO_ENGINE[k] === strategy)!;
}

/** A seat's stored strategy; a value this build does not know plays as the default, greedy. */
export function storedBotStrategy(stored: string | null): EngineBotStrategy {
  return BOT_STRATEGIES.find((s) => s === stored) ?? 'greedy';
}
