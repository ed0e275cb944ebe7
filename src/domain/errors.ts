/** Typed refusals: an illegal action comes back as a value, never as an exception. */
import type { ApplyResult, ViolationCode } from './types.js';

/** The rule of docs/rules.md each refusal applies; every refusal's message ends by citing it. */
export const VIOLATION_RULES: { readonly [C in ViolationCode]: string } = {
  NOT_YOUR_TURN: 'R7',
  INVALID_TILE: 'R1',
  TILE_NOT_HELD: 'R8',
  NO_SUCH_END: 'R8',
  TILE_DOES_NOT_MATCH: 'R8',
  END_REQUIRED: 'R8',
  MUST_PLAY_DRAWN_TILE: 'R15',
  MUST_LEAD_HIGHEST_DOUBLE: 'R6',
  MUST_PLAY: 'R14',
  BONEYARD_EMPTY: 'R15',
  ROUND_OVER: 'R17',
  MATCH_OVER: 'R22',
};

export function refuse(code: ViolationCode, message: string, rule: string = VIOLATION_RULES[code]): ApplyResult {
  return { ok: false, violation: { code, rule, message: `${message} (${rule})` } };
}
