/**
 * Many watchers per match, for bench:subscriptions (fan-out) and bench:connections (idle memory):
 * 4-seat matches, each watched by its 4 players (one socket each, with their tokens: each gets
 * their own seat's view) and by anonymous spectators, half of every view with a small selection
 * and half with a larger one (hand, seats, board), so payloads are built per view and executed
 * per selection as in production, not once for a single document.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FromFloor, ToFloor } from './broadcast-server.js';
import { DRAW, PLAY, REGISTER } from './operations.js';
import { Fleet, monotonicMs, type HeldSocket } from './fleet.js';
import { gql, metrics } from './harness.js';

export const SMALL = 'subscription($id: ID!) { matchEvents(matchId: $id) { seq type move { seq seat } match { version } } }';
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
  const tokens = await Promise.all(
    [0, 1, 2, 3].map(async (i) => (await gql<{ registerPlayer: { token: string } }>(url, REGISTER, { n: `${tag}-${i}` })).registerPlayer.token),
  );
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

/** Opens the sockets (and `others`, on other servers), then waits until the server counts every subscription. */
export async function openWatchers(
  url: string,
  sockets: HeldSocket[],
  others: HeldSocket[] = [],
): Promise<{ fleet: Fleet; held: number; failed: number; firstError: string | null; seconds: number }> {
  const before = (await metrics(url)).openSubscriptions;
  const t0 = monotonicMs();
  const { fleet, failed, firstError } = await Fleet.open(url.replace(/^http/, 'ws') + '/graphql', [...sockets, ...others]);
  const until = Date.now() + 60_000;
  let held = 0;
  while (Date.now() < until) {
    held = ((await metrics(url).catch(() => null))?.openSubscriptions ?? before) - before;
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
  const view = (
    await gql<{ match: { version: number; turn: number | null; legalMoves: { tile: unknown; end: unknown }[] } }>(url, MINE, { id: m.id }, token)
  ).match;
  await fleet.arm(m.id);
  const res =
    view.legalMoves.length > 0
      ? (
          await gql<{ playTile: { turn: number | null } }>(
            url,
            PLAY,
            { i: { matchId: m.id, tile: view.legalMoves[0].tile, end: view.legalMoves[0].end } },
            token,
          )
        ).playTile
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

/**
 * A next message the size of a typical payload here (one event, half of the watchers with each
 * document): what the floor writes.
 */
const FLOOR_MESSAGE = JSON.stringify({
  data: {
    matchEvents: {
      seq: 41,
      type: 'TILE_PLAYED',
      move: { seq: 30, seat: 2, type: 'PLAY', tile: { high: 6, low: 4 }, end: 'LEFT', points: 10 },
      match: {
        version: 42,
        status: 'IN_PROGRESS',
        turn: 3,
        mySeat: null,
        myHand: null,
        canDraw: false,
        seats: [0, 1, 2, 3].map((index) => ({
          index,
          handCount: 5,
          isBot: false,
          player: { id: 'c0a8012e-7f3b-4c1e-9d2a-5b6c7d8e9f01', name: `fan-${index}` },
        })),
      },
    },
  },
});

export const FLOOR_BYTES = FLOOR_MESSAGE.length;

/** The bare-ws floor server (broadcast-server.ts) in a child process. */
export class Floor {
  private constructor(
    private readonly child: ReturnType<typeof fork>,
    readonly port: number,
  ) {}

  static async start(): Promise<Floor> {
    const child = fork(fileURLToPath(new URL('./broadcast-server.js', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const port = await new Promise<number>((resolve) => child.once('message', (m: FromFloor) => m.type === 'listening' && resolve(m.port)));
    return new Floor(child, port);
  }

  /** `count` sockets on the floor server, in a group of their own. */
  sockets(group: string, count: number): HeldSocket[] {
    return Array.from({ length: count }, () => ({ url: `ws://127.0.0.1:${this.port}/${group}`, matchId: group, query: '', token: null }));
  }

  /** One message to every socket of the group: ms from the first write to the last socket's receipt. */
  async broadcast(fleet: Fleet, group: string): Promise<number> {
    await fleet.arm(group);
    const sent = new Promise<FromFloor>((resolve) => this.child.once('message', resolve));
    this.child.send({ type: 'broadcast', group, message: FLOOR_MESSAGE } satisfies ToFloor);
    const s = await sent;
    if (s.type !== 'sent') return NaN;
    const until = Date.now() + 30_000;
    for (;;) {
      const d = await fleet.status(group);
      if (d.reached >= d.watching) return d.lastAt - s.at;
      if (Date.now() > until) return NaN;
      await sleep(25);
    }
  }

  /** The floor process's RSS and the sockets it holds. */
  memory(): Promise<{ rssBytes: number; sockets: number }> {
    const answer = new Promise<FromFloor>((resolve) => this.child.once('message', resolve));
    this.child.send({ type: 'memory' } satisfies ToFloor);
    return answer.then((m) => (m.type === 'memory' ? m : { rssBytes: NaN, sockets: 0 }));
  }

  stop(): void {
    this.child.kill();
  }
}
