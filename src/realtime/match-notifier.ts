import type { StoredEvent } from '../matches/match-record.js';

/**
 * Told, after a command's transaction commits, what it stored. The realtime module turns this
 * into subscription pushes; the service never waits on subscribers, only on the publish.
 */
export interface MatchNotifier {
  committed(matchId: string, events: StoredEvent[], version: number, turnPlayerId: string | null, endedFor?: string[]): Promise<void>;
}

export const MATCH_NOTIFIER = Symbol('MATCH_NOTIFIER');
