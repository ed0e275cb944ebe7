import { closeCodeOf, errorText, onConnection, ServerError, ws } from './api.js';
import { MATCH_EVENTS, MY_TURNS } from './operations.js';
import type { Match } from './types.js';

export interface FeedHandlers {
  /** A newer view of the match, the event type that brought it, and the seat it is about (if any). */
  match(m: Match, type: string, seat: number | null): void;
  /** The socket is back after a drop: the caller refetches, in case no event was seen yet. */
  reconnected(): void;
  error(message: string): void;
}

interface LiveHandlers<T> {
  next(data: T): void;
  error(message: string): void;
}

/**
 * One subscription on the shared socket. graphql-ws reconnects by itself after a drop, but gives
 * up on 4500 (a failure on the server) and 4429 (connecting too often), where the server says to
 * come back later (docs/errors.md), and on an `error` message for the subscription (RATE_LIMITED,
 * INTERNAL_SERVER_ERROR): the subscription is then sent again after a wait, with the payload as it
 * is by then (for a match's feed, a catch-up from the last event seen). A close the server means
 * for good (a refused token: api.ts, TERMINAL) is shown by the connection indicator, not here.
 */
function subscribeLive<T>(payload: { query: string; variables?: Record<string, unknown> }, on: LiveHandlers<T>): () => void {
  let stopped = false;
  let dispose = (): void => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  const start = (): void => {
    if (stopped) return;
    dispose = ws().subscribe<T>(payload, {
      next: (result) => {
        failures = 0;
        if (result.errors?.length) on.error(result.errors[0].message);
        if (result.data) on.next(result.data);
      },
      error: (e) => {
        const again = (seconds: number): void => {
          const wait = Number.isFinite(seconds) ? seconds * 1000 : Math.min(1000 * 2 ** failures++, 15_000);
          timer = setTimeout(start, wait);
        };
        const code = closeCodeOf(e);
        if (code === 4500 || code === 4429) {
          const reason = (e as { reason?: unknown }).reason;
          return again(Number(/retry after (\d+)/i.exec(typeof reason === 'string' ? reason : '')?.[1] ?? NaN));
        }
        if (code !== null) return; // a close the indicator explains
        // The socket stays, but the server refused or ended this one subscription with an error
        // message: graphql-ws never sends it again by itself. Too many subscribes (RATE_LIMITED)
        // and a failure on the server pass: it is sent again, as after 4500.
        const first = Array.isArray(e)
          ? (e[0] as { message?: unknown; extensions?: { code?: unknown; retryAfter?: unknown } } | undefined)
          : undefined;
        const refusal = first?.extensions?.code;
        if (refusal === 'RATE_LIMITED' || refusal === 'INTERNAL_SERVER_ERROR') return again(Number(first?.extensions?.retryAfter ?? NaN));
        const message = typeof first?.message === 'string' ? first.message : e instanceof Error ? e.message : 'the live feed failed';
        on.error(errorText(new ServerError(typeof refusal === 'string' ? refusal : 'ERROR', message)));
      },
      complete: () => {},
    });
  };
  start();
  return () => {
    stopped = true;
    clearTimeout(timer);
    dispose();
  };
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
 *
 * The feed completes once the match is over; a rematch offered later is pushed on myTurns
 * (followMyMatch).
 */
export function followMatch(matchId: string, afterSeq: number, on: FeedHandlers): () => void {
  const payload = { query: MATCH_EVENTS, variables: { id: matchId, afterSeq } };
  let lastSeq = 0;
  let connectedOnce = false;
  const stopListening = onConnection(({ state }) => {
    if (state !== 'connected') return;
    if (connectedOnce) on.reconnected();
    connectedOnce = true;
  });
  const dispose = subscribeLive<{ matchEvents: { seq: number; type: string; seat: number | null; match: Match } }>(payload, {
    next: (data) => {
      const ev = data.matchEvents;
      if (!ev || ev.seq <= lastSeq) return;
      lastSeq = ev.seq;
      payload.variables.afterSeq = ev.seq;
      on.match(ev.match, ev.type, ev.seat);
    },
    error: (message) => on.error(message),
  });
  return () => {
    stopListening();
    dispose();
  };
}

/**
 * The caller's own pushes about one match, from myTurns: after the match is over its event feed
 * has completed, and myTurns is where an offered rematch reaches its players (docs/clients.md).
 * Needs a signed-in socket.
 */
export function followMyMatch(matchId: string, on: { match(m: Match): void; error(message: string): void }): () => void {
  return subscribeLive<{ myTurns: Match }>(
    { query: MY_TURNS },
    {
      next: (data) => {
        if (data.myTurns?.id === matchId) on.match(data.myTurns);
      },
      error: (message) => on.error(message),
    },
  );
}
