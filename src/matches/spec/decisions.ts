import { ApiError } from '../../common/api-error.js';
import type { Decision } from '../command-runner.js';

/** Helpers for the pure decision specs. */

/** The ApiError code a decision throws (it must throw one). */
export function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    if (e instanceof ApiError) return e.code;
    throw e;
  }
  throw new Error('no error');
}

/** The commit a decision made (it must make one). */
export function commitOf(d: Decision) {
  if (!('commit' in d)) throw new Error('expected a commit');
  return d.commit;
}

/** A player joining with the seed 'mine', under a WAITING cap of 10. */
export const joiner = (playerId: string) => ({ playerId, clientSeed: 'mine', maxWaiting: 10 });
