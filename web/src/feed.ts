import { onConnection, ws } from './api.js';
import { MATCH_EVENTS } from './operations.js';
import type { Match } from './types.js';

export interface FeedHandlers {
  /** A newer view of the match, and the event type that brought it. */
  match(m: Match, type: string): void;
  /** The socket is back after a drop: the caller refetches, in case no event was seen yet. */
  reconnected(): void;
  error(message: string): void;
}

/**
 * Follows a match's events from `afterSeq` on. After a dropped connection graphql-ws re-sends the
 * same subscribe payload; keeping `afterSeq` in it at the last event seen makes that
 * re-subscription a catch-up (stored events after it, then live ones), and events already seen
 * are skipped.
 *
 * The first `afterSeq`: a Match does not tell its latest event seq, but every move is an event, so
 * the last Move.seq the page has seen is never past it. Starting there replays the few non-move
 * events since (joins, round starts) and closes the gap between loading the match and subscribing.
 */
export function followMatch(matchId: string, afterSeq: number, on: FeedHandlers): () => void {
  const payload = { query: MATCH_EVENTS, variables: { id: matchId, afterSeq } };
  let lastSeq = 0;
  let connectedOnce = false;
  const stopListening = onConnection((state) => {
    if (state !== 'connected') return;
    if (connectedOnce) on.reconnected();
    connectedOnce = true;
  });
  const dispose = ws().subscribe<{ matchEvents: { seq: number; type: string; match: Match } }>(payload, {
    next: (result) => {
      const ev = result.data?.matchEvents;
      if (result.errors?.length) on.error(result.errors[0].message);
      if (!ev || ev.seq <= lastSeq) return;
      lastSeq = ev.seq;
      payload.variables.afterSeq = ev.seq;
      on.match(ev.match, ev.type);
    },
    error: (e) => on.error(e instanceof Error ? e.message : 'the live feed failed'),
    complete: () => {},
  });
  return () => {
    stopListening();
    dispose();
  };
}
