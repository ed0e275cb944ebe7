import type { MoveRecord } from '../domain/index.js';
import type { LoadedMatch, StoredEvent } from './loaded-match.js';

/** What one command stored, as its listeners are told once its transaction has committed. */
export interface Committed {
  before: LoadedMatch;
  after: LoadedMatch;
  events: readonly StoredEvent[];
  moves: readonly MoveRecord[];
}

/**
 * Work that follows a commit in the process that made it (bots moving, and the like). It is told
 * after the subscribers' signal is published and must not hold the command up: it returns at once
 * and starts its own work. Whatever it must not lose is due work, marked by the commit statement
 * itself; this is only the fast path.
 */
export interface CommitListener {
  committed(c: Committed): void;
}

/**
 * The listeners, in the order they are told. Provided by MatchesModule from an explicit list
 * (`commitListeners(...)`): a listener missing from the app fails the boot instead of going quiet.
 */
export const COMMIT_LISTENERS = Symbol('COMMIT_LISTENERS');

/** The COMMIT_LISTENERS provider over these listener classes (add one by adding it here). */
export function commitListeners(...types: (abstract new (...args: never[]) => CommitListener)[]) {
  return { provide: COMMIT_LISTENERS, inject: types, useFactory: (...listeners: CommitListener[]) => listeners };
}
