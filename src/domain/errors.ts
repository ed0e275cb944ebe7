/** Typed refusals: an illegal action comes back as a value, never as an exception. */
import type { ApplyResult, ViolationCode } from './types.js';

export function refuse(code: ViolationCode, message: string): ApplyResult {
  return { ok: false, violation: { code, message } };
}
