import { expect } from '@jest/globals';
import { GqlClient } from './gql.js';
import { Q_MATCH, type MatchT } from './fragments.js';

/** A small deterministic generator, so a failing drive can be re-run move for move. */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export async function viewOf(client: GqlClient, matchId: string): Promise<MatchT> {
  return (await client.request<{ match: MatchT }>(Q_MATCH, { id: matchId })).match;
}

const Q_TURN = `query($id: ID!) { match(id: $id) { status turn seats { isBot } } }`;
const Q_MINE = `query($id: ID!) { match(id: $id) { version mySeat turn myHand { high low } seats { handCount } legalMoves { tile { high low } end } canDraw } }`;
const M_PLAY_SLIM = `mutation($input: PlayTileInput!) { playTile(input: $input) { version } }`;
const M_DRAW_SLIM = `mutation($input: TurnInput!) { drawTile(input: $input) { version } }`;

/** Waits until the server's bots have moved and it is a human's turn (or the match is over). */
export async function waitForHuman(client: GqlClient, matchId: string, timeoutMs = 20_000): Promise<Pick<MatchT, 'status' | 'turn' | 'seats'>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const m = (await client.request<{ match: MatchT }>(Q_TURN, { id: matchId })).match;
    if (m.status !== 'IN_PROGRESS' || !m.seats[m.turn!].isBot) return m;
    if (Date.now() > until) throw new Error(`bots did not hand the turn back within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Plays a match to its end through the public API only: each human seat acts from its own
 * view's legalMoves / canDraw, and every view is checked for what it must and must not show.
 * Returns the final public view and the number of commands sent.
 */
export async function driveMatch(
  bySeat: Map<number, GqlClient>,
  matchId: string,
  seed = 1,
  maxCommands = 5_000,
): Promise<{ final: MatchT; commands: number }> {
  const rnd = lcg(seed);
  const any = [...bySeat.values()][0];
  let commands = 0;
  for (;;) {
    const pub = await waitForHuman(any, matchId);
    if (pub.status !== 'IN_PROGRESS') return { final: await viewOf(any, matchId), commands };
    const seat = pub.turn!;
    const client = bySeat.get(seat);
    if (!client) throw new Error(`no client for human seat ${seat}`);
    const me = (await client.request<{ match: MatchT }>(Q_MINE, { id: matchId })).match;
    expect(me.mySeat).toBe(seat);
    expect(me.myHand).toHaveLength(me.seats[seat].handCount);
    // Passing is automatic: the seat to move always has something to do.
    expect(me.legalMoves.length > 0 || me.canDraw).toBe(true);
    if (me.legalMoves.length > 0) {
      const move = me.legalMoves[Math.floor(rnd() * me.legalMoves.length)];
      await client.request(M_PLAY_SLIM, { input: { matchId, tile: move.tile, end: move.end, expectedVersion: me.version } });
    } else {
      await client.request(M_DRAW_SLIM, { input: { matchId, expectedVersion: me.version } });
    }
    if (++commands > maxCommands) throw new Error('the match did not end');
  }
}
