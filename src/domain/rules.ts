/**
 * Rule variants: defaults (rules.md, marked "(default)") and setup validation. Validation returns
 * every problem at once, in plain words, so a client can show them all.
 */
import { TILE_COUNT } from './tiles.js';
import type { Rules } from './types.js';

export const DEFAULT_RULES: Rules = Object.freeze({
  targetScore: 250, // R3
  handSize: 7, // R4
  spinner: 'FIRST_DOUBLE', // R10
  spinnerEndsCount: false, // R12
  voluntaryDraw: false, // R14
  reserve: 0, // R15
  firstLeader: 'DRAW', // R5
  leadRule: 'ANY', // R6
  dominoRounding: 'AGGREGATE', // R18
  blockedBonus: 'OPPONENTS_TOTAL', // R19
  playOut: false, // R22
  scoring: 'FIVES', // R25
} as const);

/**
 * Every rule variant's key, in the order the API and the match record list them: the one list
 * that code walking "all the rules" uses. A key added to Rules and not here fails to compile.
 */
export const RULE_KEYS = [
  'targetScore',
  'handSize',
  'spinner',
  'spinnerEndsCount',
  'voluntaryDraw',
  'reserve',
  'firstLeader',
  'leadRule',
  'dominoRounding',
  'blockedBonus',
  'playOut',
  'scoring',
] as const satisfies readonly (keyof Rules)[];

export type RuleKey = (typeof RULE_KEYS)[number];

/** Holds only for `never`: a type check that compiles only while the set it is given is empty. */
export type AssertEmpty<T extends never> = T;

/** Compiles only while RULE_KEYS names every key of Rules. */
export type EveryRuleKeyListed = AssertEmpty<Exclude<keyof Rules, RuleKey>>;

/** Only the rule keys of `rules` (a stored or received object may carry more), in RULE_KEYS order. */
export function pickRules<T extends { readonly [K in RuleKey]?: unknown }>(rules: T): Pick<T, RuleKey> {
  return Object.fromEntries(RULE_KEYS.map((k) => [k, rules[k]]));
}

/** Fills every missing (undefined or null) field with its default. */
export function resolveRules(partial: Partial<Rules> | undefined | null): Rules {
  const p = (partial ?? {}) as { [K in keyof Rules]?: Rules[K] | null };
  return Object.fromEntries(RULE_KEYS.map((k) => [k, p[k] ?? DEFAULT_RULES[k]])) as unknown as Rules;
}

const ENUMS: { readonly [K in keyof Rules]?: readonly string[] } = {
  spinner: ['FIRST_DOUBLE', 'NONE'],
  firstLeader: ['DRAW', 'RANDOM'],
  leadRule: ['ANY', 'HIGHEST_DOUBLE'],
  dominoRounding: ['AGGREGATE', 'PER_HAND'],
  blockedBonus: ['OPPONENTS_TOTAL', 'DIFFERENCE'],
  scoring: ['FIVES', 'FIVES_AND_THREES', 'THREES_AND_FIVES'],
};

const BOOLEANS: readonly (keyof Rules)[] = ['spinnerEndsCount', 'voluntaryDraw', 'playOut'];

function isIntIn(n: unknown, lo: number, hi: number): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= lo && n <= hi;
}

/** Empty when the table and rules make a playable match; otherwise one reason per problem. */
export function validateSetup(seats: number, partnerships: boolean, rules: Rules): string[] {
  const errors: string[] = [];
  const seatsOk = isIntIn(seats, 2, 4);
  if (!seatsOk) errors.push(`seats must be 2, 3 or 4 (got ${String(seats)})`);
  if (typeof partnerships !== 'boolean') errors.push('partnerships must be true or false');
  else if (partnerships && seats !== 4) errors.push('partnerships need exactly 4 seats');
  if (!isIntIn(rules.targetScore, 1, 10000)) {
    errors.push(`targetScore must be an integer from 1 to 10000 (got ${String(rules.targetScore)})`);
  }
  const handOk = isIntIn(rules.handSize, 1, 14);
  if (!handOk) errors.push(`handSize must be an integer from 1 to 14 (got ${String(rules.handSize)})`);
  let boneyard: number | null = null;
  if (seatsOk && handOk) {
    const needed = rules.handSize * seats;
    if (needed > TILE_COUNT) {
      errors.push(`handSize ${rules.handSize} × ${seats} seats needs ${needed} tiles; the set has ${TILE_COUNT}`);
    } else {
      boneyard = TILE_COUNT - needed;
    }
  }
  if (!isIntIn(rules.reserve, 0, Number.MAX_SAFE_INTEGER)) {
    errors.push(`reserve must be a non-negative integer (got ${String(rules.reserve)})`);
  } else if (boneyard === null && rules.reserve > TILE_COUNT) {
    errors.push(`reserve ${rules.reserve} exceeds the set (${TILE_COUNT} tiles)`);
  } else if (boneyard !== null && rules.reserve > boneyard) {
    errors.push(`reserve ${rules.reserve} exceeds the boneyard (${boneyard} tiles with ${seats} seats × ${rules.handSize})`);
  }
  for (const key of Object.keys(ENUMS) as (keyof Rules)[]) {
    const allowed = ENUMS[key] ?? [];
    const value = rules[key];
    if (!allowed.includes(value as string)) {
      errors.push(`${key} must be one of ${allowed.join(', ')} (got ${String(value)})`);
    }
  }
  for (const key of BOOLEANS) {
    if (typeof rules[key] !== 'boolean') errors.push(`${key} must be true or false (got ${String(rules[key])})`);
  }
  return errors;
}
