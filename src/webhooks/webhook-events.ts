import type { Commit } from '../matches/loaded-match.js';

/** What an endpoint can subscribe to (GraphQL `WebhookEvent`). */
export const WEBHOOK_EVENTS = ['TURN', 'MATCH_STARTED', 'MATCH_FINISHED', 'DEADLINE_SOON', 'TIMED_OUT'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/**
 * One event for one player. `data` is public match information only (ids, version, seats,
 * scores): enough to fetch the match, never a tile of any hand or of the boneyard.
 */
export interface WebhookEventFor {
  playerId: string;
  type: WebhookEventType;
  data: { matchId: string; matchVersion: number; seat: number } & Record<string, unknown>;
}

/** Maps a commit to the events it causes; a source of events for another kind of commit adds one. */
export type WebhookEventSource = (c: Commit, seats: readonly (string | null)[]) => WebhookEventFor[];

/**
 * TURN (a commit began this human's turn), MATCH_STARTED and MATCH_FINISHED (every human seated).
 * DEADLINE_SOON and TIMED_OUT come with correspondence clocks: they add their own source.
 */
export const matchEvents: WebhookEventSource = (c, seats) => {
  const matchVersion = c.expectedVersion + 1;
  const base = (playerId: string) => ({ matchId: c.matchId, matchVersion, seat: seats.indexOf(playerId) });
  const humans = seats.filter((p): p is string => p !== null);
  const out: WebhookEventFor[] = [];
  if (c.started) for (const p of humans) out.push({ playerId: p, type: 'MATCH_STARTED', data: base(p) });
  if (c.turnTo) out.push({ playerId: c.turnTo, type: 'TURN', data: { ...base(c.turnTo), round: c.state?.round.number ?? null } });
  if (c.finished && c.status === 'FINISHED') {
    for (const p of humans) {
      const team = c.state?.teamOfSeat[seats.indexOf(p)] ?? null;
      out.push({ playerId: p, type: 'MATCH_FINISHED', data: { ...base(p), winnerTeam: c.winnerTeam, won: team !== null && team === c.winnerTeam } });
    }
  }
  return out;
};

/** Every source of webhook events a commit is checked against. */
export const WEBHOOK_EVENT_SOURCES: WebhookEventSource[] = [matchEvents];

/** The events of a commit from every source. */
export function webhookEventsOf(c: Commit, seats: readonly (string | null)[]): WebhookEventFor[] {
  return WEBHOOK_EVENT_SOURCES.flatMap((source) => source(c, seats));
}

/** The message body, exactly as it is signed and sent (Standard Webhooks: type, timestamp, data). */
export function webhookBody(e: WebhookEventFor, at: Date): string {
  return JSON.stringify({ type: e.type, timestamp: at.toISOString(), data: e.data });
}
