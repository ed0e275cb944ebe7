import type { Commit } from '../matches/loaded-match.js';

/** What an endpoint can subscribe to (GraphQL `WebhookEvent`). */
export const WEBHOOK_EVENTS = [
  'TURN',
  'MATCH_STARTED',
  'MATCH_FINISHED',
  'DEADLINE_SOON',
  'TIMED_OUT',
  'REMATCH_OFFERED',
  'PLAYER_JOINED',
  'PLAYER_LEFT',
  'MATCH_EXPIRED',
] as const;
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

/** TURN (a commit began this human's turn), MATCH_STARTED and MATCH_FINISHED (every human seated). */
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

/**
 * The clock's events (docs/clocks.md), from the stored events of the commit. DEADLINE_SOON goes to
 * the player whose time runs, with the deadline: the reminder. TIMED_OUT goes to every human seated,
 * naming the seat that ran out (`timedOutSeat`): its player learns the server moved or forfeited
 * for them, the others why the match moved on without that player.
 */
export const clockEvents: WebhookEventSource = (c, seats) => {
  const matchVersion = c.expectedVersion + 1;
  const out: WebhookEventFor[] = [];
  for (const e of c.events) {
    if (e.seat === null || e.seat === undefined) continue;
    if (e.type === 'DEADLINE_SOON') {
      const player = seats[e.seat];
      const deadline = c.clock?.deadlineAt?.toISOString() ?? null;
      if (player) out.push({ playerId: player, type: 'DEADLINE_SOON', data: { matchId: c.matchId, matchVersion, seat: e.seat, deadline } });
    } else if (e.type === 'TIMED_OUT') {
      seats.forEach((player, seat) => {
        if (player) out.push({ playerId: player, type: 'TIMED_OUT', data: { matchId: c.matchId, matchVersion, seat, timedOutSeat: e.seat } });
      });
    }
  }
  return out;
};

/**
 * REMATCH_OFFERED goes to every other human of the finished match (`offeredBySeat` names the
 * offering seat): the news a player who is not connected needs to join the rematch.
 */
export const rematchEvents: WebhookEventSource = (c, seats) => {
  const matchVersion = c.expectedVersion + 1;
  const out: WebhookEventFor[] = [];
  for (const e of c.events) {
    if (e.type !== 'REMATCH_OFFERED' || e.seat === null || e.seat === undefined) continue;
    seats.forEach((player, seat) => {
      if (player && seat !== e.seat)
        out.push({ playerId: player, type: 'REMATCH_OFFERED', data: { matchId: c.matchId, matchVersion, seat, offeredBySeat: e.seat } });
    });
  }
  return out;
};

/**
 * Before the start, the news a player waiting for opponents needs when not connected: another
 * player took a seat (PLAYER_JOINED, `joinedSeat`) or left one (PLAYER_LEFT, `leftSeat`) of a
 * match that still waits, to every other human seated (a join that fills the table is
 * MATCH_STARTED instead); nobody joined in time (MATCH_EXPIRED, to every human seated: the match
 * is ABANDONED).
 */
export const seatingEvents: WebhookEventSource = (c, seats) => {
  const matchVersion = c.expectedVersion + 1;
  const out: WebhookEventFor[] = [];
  const toOthers = (type: WebhookEventType, changed: number, detail: Record<string, number>) =>
    seats.forEach((player, seat) => {
      if (player && seat !== changed) out.push({ playerId: player, type, data: { matchId: c.matchId, matchVersion, seat, ...detail } });
    });
  for (const e of c.events) {
    if (e.type === 'MATCH_EXPIRED') toOthers('MATCH_EXPIRED', -1, {});
    if (c.status !== 'WAITING') continue;
    const change = c.seatChanges?.[0];
    if (!change) continue;
    if (e.type === 'PLAYER_JOINED' && change.playerId !== null) toOthers('PLAYER_JOINED', change.index, { joinedSeat: change.index });
    if (e.type === 'PLAYER_LEFT' && change.playerId === null) toOthers('PLAYER_LEFT', change.index, { leftSeat: change.index });
  }
  return out;
};

/** Every source of webhook events a commit is checked against. */
export const WEBHOOK_EVENT_SOURCES: WebhookEventSource[] = [matchEvents, clockEvents, rematchEvents, seatingEvents];

/** The events of a commit from every source. */
export function webhookEventsOf(c: Commit, seats: readonly (string | null)[]): WebhookEventFor[] {
  return WEBHOOK_EVENT_SOURCES.flatMap((source) => source(c, seats));
}

/** The message body, exactly as it is signed and sent (Standard Webhooks: type, timestamp, data). */
export function webhookBody(e: WebhookEventFor, at: Date): string {
  return JSON.stringify({ type: e.type, timestamp: at.toISOString(), data: e.data });
}
