import { ApiError } from '../../common/api-error.js';

/*
 * A match's clock settings: what createMatch asked for, checked and with every default filled in.
 * Plain data, stored as the Match's "clock" column and shown as Match.clock.
 */

export type ClockKind = 'PER_MOVE' | 'BANK';
export type TimeoutPolicy = 'BOT_PLAYS' | 'FORFEIT';

export interface ClockSettings {
  readonly kind: ClockKind;
  /** PER_MOVE: each turn gets this long; null for BANK */
  readonly moveSeconds: number | null;
  /** BANK: the bank each seat starts with; null for PER_MOVE */
  readonly bankSeconds: number | null;
  /** BANK: added to a seat's bank after each of its turns; null for PER_MOVE */
  readonly incrementSeconds: number | null;
  /** BANK: the bank never grows past this; null for PER_MOVE */
  readonly maxBankSeconds: number | null;
  readonly onTimeout: TimeoutPolicy;
  /** BOT_PLAYS: after this many timeouts in a row one seat's side forfeits (0 never); 0 for FORFEIT */
  readonly forfeitAfter: number;
}

/** What a client may send (ClockInput): unset fields are null or undefined. */
export interface ClockRequest {
  kind: ClockKind;
  moveSeconds?: number | null;
  bankSeconds?: number | null;
  incrementSeconds?: number | null;
  maxBankSeconds?: number | null;
  onTimeout?: TimeoutPolicy | null;
  forfeitAfter?: number | null;
}

export const MAX_CLOCK_SECONDS = 30 * 24 * 3600;
export const DEFAULT_FORFEIT_AFTER = 3;
const MAX_FORFEIT_AFTER = 100;

const given = (v: number | null | undefined): v is number => v !== null && v !== undefined;

/**
 * Checks a requested clock and fills its defaults, or lists every problem (BAD_USER_INPUT):
 * a time out of [minSeconds, 30 days], a field that does not belong to the kind or policy.
 */
export function resolveClock(req: ClockRequest, minSeconds: number): ClockSettings {
  const problems: string[] = [];
  const whole = (name: string, v: number, min: number, max: number, unit = 'seconds') => {
    if (!Number.isInteger(v) || v < min || v > max) problems.push(`clock.${name} must be a whole number of ${unit} from ${min} to ${max} (got ${v})`);
  };
  const notFor = (name: string, v: number | null | undefined, why: string) => {
    if (given(v)) problems.push(`clock.${name} does not apply ${why}`);
  };
  const onTimeout = req.onTimeout ?? 'BOT_PLAYS';
  if (req.kind === 'PER_MOVE') {
    if (!given(req.moveSeconds)) problems.push('clock.moveSeconds is required with kind PER_MOVE');
    else whole('moveSeconds', req.moveSeconds, minSeconds, MAX_CLOCK_SECONDS);
    for (const name of ['bankSeconds', 'incrementSeconds', 'maxBankSeconds'] as const) notFor(name, req[name], 'to kind PER_MOVE (it is for BANK)');
  } else {
    notFor('moveSeconds', req.moveSeconds, 'to kind BANK (it is for PER_MOVE)');
    if (!given(req.bankSeconds)) problems.push('clock.bankSeconds is required with kind BANK');
    else whole('bankSeconds', req.bankSeconds, minSeconds, MAX_CLOCK_SECONDS);
    if (given(req.incrementSeconds)) whole('incrementSeconds', req.incrementSeconds, 0, MAX_CLOCK_SECONDS);
    if (given(req.maxBankSeconds)) {
      whole('maxBankSeconds', req.maxBankSeconds, minSeconds, MAX_CLOCK_SECONDS);
      if (given(req.bankSeconds) && req.maxBankSeconds < req.bankSeconds) problems.push('clock.maxBankSeconds must be at least bankSeconds');
    }
  }
  if (onTimeout === 'FORFEIT') notFor('forfeitAfter', req.forfeitAfter, 'to onTimeout FORFEIT (the first timeout forfeits)');
  else if (given(req.forfeitAfter)) whole('forfeitAfter', req.forfeitAfter, 0, MAX_FORFEIT_AFTER, 'timeouts');
  if (problems.length > 0) throw new ApiError('BAD_USER_INPUT', problems.join('; '), { problems });
  const bank = req.kind === 'BANK';
  return {
    kind: req.kind,
    moveSeconds: bank ? null : req.moveSeconds!,
    bankSeconds: bank ? req.bankSeconds! : null,
    incrementSeconds: bank ? (req.incrementSeconds ?? 0) : null,
    maxBankSeconds: bank ? (req.maxBankSeconds ?? req.bankSeconds!) : null,
    onTimeout,
    forfeitAfter: onTimeout === 'FORFEIT' ? 0 : (req.forfeitAfter ?? DEFAULT_FORFEIT_AFTER),
  };
}
