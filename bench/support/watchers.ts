/**
 * Many watchers per match, for bench:subscriptions (fan-out) and bench:connections (idle memory):
 * 4-seat matches, each watched by its 4 players (one socket each, with their tokens: each gets
 * their own seat's view) and by anonymous spectators, half of every view with a small selection
 * and half with a larger one (hand, seats, board), so payloads are built per view and executed
 * per selection as in production, not once for a single document.
 */
import { DRAW, PLAY, REGISTER } from './operations.js';
import { Fleet, monotonicMs, type HeldSocket } from './fleet.js';
import { gql, metrics } from './harness.js';

export const SMALL =
  'subscription($id: ID!) { matchEvents(matchId: $id) { seq type move { seq seat } match { version } } }';
export const LARGE =
  'subscription($id: ID!) { matchEvents(matchId: $id) { seq type move { seq seat type tile { high low } end points } ' +
  'match { version status turn mySeat myHand { high low } canDraw seats { index handCount isBot player { id name } } ' +
  'teams { index score } currentRound { number boneyardCount board { count openEnds { end pips } } } } } }';

const CREATE = 'mutation { createMatch(input: { seats: 4 }) { id } }';
const JOIN = 'mutation($id: ID!) { joinMatch(matchId: $id) { turn mySeat } }';
const MINE = 'query($id: ID!) { match(id: $id) { version turn status legalMoves { tile { high low } end } canDraw } }';

export interface WatchedMatch {
  id: string;
  seatToken: Map<number, string>;
  tokens: string[];
  turn: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function fourSeatMatch(url: string, tag: string): Promise<WatchedMatch> {
  const tokens = await Promise.all([0, 1, 2, 3].map(async (i) => (await gql<{ registerPlayer: { token: string } }>(url, REGISTER, { n: `${tag}-${i}` })).registerPlayer.token));
  const id = (await gql<{ createMatch: { id: string } }>(url, CREATE, {}, tokens[0])).createMatch.id;
  const seatToken = new Map([[0, tokens[0]]]);
  let turn = 0;
  for (const t of tokens.slice(1)) {
    const { joinMatch } = await gql<{ joinMatch: { turn: number | null; mySeat: number } }>(url, JOIN, { id }, t);
    seatToken.set(joinMatch.mySeat, t);
    turn = joinMatch.turn ?? 0;
  }
  return { id, seatToken, tokens, turn };
}

/** `count` sockets on the match: its 4 players, then anonymous spectators; documents alternate. */
export function watchersOf(m: WatchedMatch, count: number): HeldSocket[] {
  return Array.from({ length: count }, (_, k) => ({ matchId: m.id, query: k % 2 === 0 ? SMALL : LARGE, token: k < 4 ? m.tokens[k] : null }));
}

/** Opens the sockets, then waits until the server counts every subscription. */
export async function openWatchers(url: string, sockets: HeldSocket[]): Promise<{ fleet: Fleet; held: number; failed: number; firstError: string | null; seconds: number }> {
  const before = (await metrics(url)).openSubscriptions;
  const t0 = monotonicMs();
  const { fleet, failed, firstError } = await Fleet.open(url.replace(/^http/, 'ws') + '/graphql', sockets);
  const until = Date.now() + 60_000;
  let held = 0;
  while (Date.now() < until) {
    held = (await metrics(url)).openSubscriptions - before;
    if (held >= sockets.length - failed) break;
    await sleep(250);
  }
  return { fleet, held, failed, firstError, seconds: (monotonicMs() - t0) / 1000 };
}

/**
 * One move in the match (the player to move plays its first legal tile, else draws), then waits
 * for every watcher's first event: ms from the commit-ack (the mutation's response) to the last
 * watcher's receipt, or NaN when some never got it within 30 s.
 */
export async function moveAndWait(url: string, fleet: Fleet, m: WatchedMatch): Promise<{ lastMs: number; reached: number; watching: number }> {
  const token = m.seatToken.get(m.turn)!;
  const view = (await gql<{ match: { version: number; turn: number | null; legalMoves: { tile: unknown; end: unknown }[] } }>(url, MINE, { id: m.id }, token)).match;
  await fleet.arm(m.id);
  const res =
    view.legalMoves.length > 0
      ? (await gql<{ playTile: { turn: number | null } }>(url, PLAY, { i: { matchId: m.id, tile: view.legalMoves[0].tile, end: view.legalMoves[0].end } }, token)).playTile
      : (await gql<{ drawTile: { turn: number | null } }>(url, DRAW, { i: { matchId: m.id } }, token)).drawTile;
  const tAck = monotonicMs();
  m.turn = res.turn ?? m.turn;
  const until = Date.now() + 30_000;
  for (;;) {
    const s = await fleet.status(m.id);
    if (s.reached >= s.watching) return { lastMs: s.lastAt - tAck, reached: s.reached, watching: s.watching };
    if (Date.now() > until) return { lastMs: NaN, reached: s.reached, watching: s.watching };
    await sleep(25); // receipts are timed by the holders: polling slower only spares their CPU
  }
}
