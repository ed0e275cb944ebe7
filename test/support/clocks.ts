import { expect } from '@jest/globals';
import type { PrismaService } from '../../src/database/prisma.service.js';
import { actionsFromMoves, apply, newMatch } from '../../src/domain/index.js';
import type { GqlClient } from './gql.js';
import { storedMoves } from './replay-check.js';

/** What the clock tests read of a match through the API. */
export const CLOCK_FIELDS = `id status version turn mySeat deadline
  clock { kind moveSeconds bankSeconds incrementSeconds maxBankSeconds onTimeout forfeitAfter }
  seats { index team isBot timeouts timeLeftSeconds player { id } }
  winner { index seats }
  legalMoves { tile { high low } end } canDraw
  currentRound { number moves { seq seat type timedOut } }`;

export interface ClockedMatch {
  id: string;
  status: string;
  version: number;
  turn: number | null;
  mySeat: number | null;
  deadline: string | null;
  clock: Record<string, unknown> | null;
  seats: { index: number; team: number; isBot: boolean; timeouts: number; timeLeftSeconds: number | null; player: { id: string } | null }[];
  winner: { index: number; seats: number[] } | null;
  legalMoves: { tile: { high: number; low: number }; end: string | null }[];
  canDraw: boolean;
  currentRound: { number: number; moves: { seq: number; seat: number; type: string; timedOut: boolean }[] } | null;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function clockedView(client: GqlClient, id: string): Promise<ClockedMatch> {
  return (await client.request<{ match: ClockedMatch }>(`query($id: ID!) { match(id: $id) { ${CLOCK_FIELDS} } }`, { id })).match;
}

/** A two-seat match of these players with this clock, started (the second joined). */
export async function clockedDuel(a: GqlClient, b: GqlClient, clock: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<string> {
  const { createMatch } = await a.request<{ createMatch: { id: string } }>(
    `mutation($input: CreateMatchInput!) { createMatch(input: $input) { id } }`,
    {
      input: { seats: 2, clock, ...extra },
    },
  );
  await b.request(`mutation($id: ID!) { joinMatch(matchId: $id) { id } }`, { id: createMatch.id });
  return createMatch.id;
}

/** The first legal move of the caller, as a mutation: a play, or a draw without one. */
export async function moveNow(client: GqlClient, m: ClockedMatch, clientMoveId?: string): Promise<void> {
  const input = { matchId: m.id, clientMoveId };
  const mv = m.legalMoves[0];
  if (mv) await client.request('mutation($i: PlayTileInput!) { playTile(input: $i) { version } }', { i: { ...input, tile: mv.tile, end: mv.end } });
  else await client.request('mutation($i: TurnInput!) { drawTile(input: $i) { version } }', { i: input });
}

export interface StoredEventRow {
  seq: number;
  moveSeq: number | null;
  type: string;
  seat: number | null;
  moveSeat: number | null;
  timedOut: boolean | null;
  clientMoveId: string | null;
}

/** A match's stored events with their moves, in order (straight from the tables). */
export async function storedEvents(prisma: PrismaService, matchId: string): Promise<StoredEventRow[]> {
  return prisma.$queryRaw<StoredEventRow[]>`
    SELECT e.seq, e."moveSeq", e.type, e.seat, m.seat AS "moveSeat", m."timedOut", m."clientMoveId"
    FROM "MatchEvent" e LEFT JOIN "Move" m ON m."matchId" = e."matchId" AND m.seq = e."moveSeq"
    WHERE e."matchId" = ${matchId}::uuid ORDER BY e.seq`;
}

/**
 * Every TIMED_OUT is the server acting once for the seat whose turn ran out: right after it come
 * that seat's own moves, all marked timedOut (or MATCH_FINISHED when its side forfeits), and no
 * other move of the match is marked timedOut. Returns the timed-out seats in order.
 */
export function timeoutsOf(events: StoredEventRow[]): number[] {
  const seats: number[] = [];
  const marked = new Set<number>();
  events.forEach((e, i) => {
    if (e.type !== 'TIMED_OUT') return;
    seats.push(e.seat!);
    const next = events[i + 1];
    if (!next) throw new Error(`TIMED_OUT (seq ${e.seq}) is the last event`);
    if (next.type === 'MATCH_FINISHED') return;
    if (next.moveSeat !== e.seat || next.timedOut !== true) throw new Error(`TIMED_OUT (seq ${e.seq}) is not followed by its seat's move`);
    for (let j = i + 1; j < events.length && events[j].moveSeat === e.seat && events[j].timedOut; j++) marked.add(events[j].seq);
  });
  const stray = events.filter((e) => e.timedOut && !marked.has(e.seq));
  if (stray.length > 0) throw new Error(`moves marked timedOut without a TIMED_OUT before them: ${stray.map((e) => e.seq).join(', ')}`);
  return seats;
}

/**
 * The stored moves of a match its clock ended (a forfeit) replay to its stored state: the
 * engine's state after the last move, then FINISHED with the other side winning.
 */
export async function expectForfeitReplayable(prisma: PrismaService, matchId: string, loserSeat: number): Promise<void> {
  const { config, moves } = await storedMoves(prisma, matchId);
  expect(moves.map((x) => x.seq)).toEqual(moves.map((_, i) => i + 1));
  let { state } = newMatch(config);
  for (const action of actionsFromMoves(moves)) {
    const res = apply(state, action);
    if (!res.ok) throw new Error(`stored move refused on replay: ${res.violation.code}`);
    state = res.state;
  }
  const m = await prisma.match.findUniqueOrThrow({ where: { id: matchId } });
  expect(m.state).toEqual({ ...state, status: 'FINISHED', winner: 1 - state.teamOfSeat[loserSeat] });
}
