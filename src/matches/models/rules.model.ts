import { Field, Int, ObjectType } from '@nestjs/graphql';
import type { AssertEmpty, RuleKey } from '../../domain/index.js';
import { BlockedBonus, FirstLeader, LeadRule, Rounding, ScoringSystem, SpinnerMode } from './enums.js';

@ObjectType({ description: "A match's rules: every variant of rules.md, all set." })
export class Rules {
  @Field(() => Int, { description: 'A side reaching this score wins (R22). Default 250.' })
  targetScore!: number;
  @Field(() => Int, { description: 'Tiles dealt to each seat (R4). Default 7.' })
  handSize!: number;
  @Field(() => SpinnerMode, { description: 'Default FIRST_DOUBLE.' })
  spinner!: SpinnerMode;
  @Field({ description: 'Uncovered spinner ends keep counting once both its sides are taken (Sniff). Default false.' })
  spinnerEndsCount!: boolean;
  @Field({
    description:
      'A player may draw while holding a playable tile (R14), and a drawn tile then simply joins the hand: no drawn tile must be played at once (R15 does not apply). Default false.',
  })
  voluntaryDraw!: boolean;
  @Field(() => Int, { description: 'Tiles left in the boneyard that are never drawn (R15). Default 0.' })
  reserve!: number;
  @Field(() => FirstLeader, { description: 'Default DRAW.' })
  firstLeader!: FirstLeader;
  @Field(() => LeadRule, { description: 'Default ANY.' })
  leadRule!: LeadRule;
  @Field(() => Rounding, { description: 'Default AGGREGATE.' })
  dominoRounding!: Rounding;
  @Field(() => BlockedBonus, { description: 'Default OPPONENTS_TOTAL.' })
  blockedBonus!: BlockedBonus;
  @Field({
    description: 'Finish the round before declaring a winner (highest score wins; a tie for highest plays another round). Default false.',
  })
  playOut!: boolean;
  @Field(() => ScoringSystem, { description: 'Default FIVES.' })
  scoring!: ScoringSystem;
}

/** Compiles only while this type has a field for every rule (RULE_KEYS) and no other. */
export type RulesModelKeys = [AssertEmpty<Exclude<keyof Rules, RuleKey>>, AssertEmpty<Exclude<RuleKey, keyof Rules>>];
