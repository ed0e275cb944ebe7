import type { GqlClient } from './gql.js';

const Q_MINE = `query($id: ID!) { match(id: $id) { status version turn mySeat legalMoves { tile { high low } end } canDraw } }`;
const M_PLAY = `mutation($input: PlayTileInput!) { playTile(input: $input) { version } }`;
const M_DRAW = `mutation($input: TurnInput!) { drawTile(input: $input) { version } }`;

/** A 2-seat match that lasts (target 10,000), started, with a client per seat. */
export async function longMatch(a: GqlClient, b: GqlClient): Promise<{ id: string; bySeat: Map<number, GqlClient> }> {
  const { createMatch } = await a.request<{ createMatch: { id: string } }>(
    'mutation { createMatch(input: { seats: 2, rules: { targetScore: 10000 } }) { id } }',
  );
  await b.request('mutation($id: ID!) { joinMatch(matchId: $id) { id } }', { id: createMatch.id });
  return {
    id: createMatch.id,
    bySeat: new Map([
      [0, a],
      [1, b],
    ]),
  };
}

/** One command by the seat to move: its first legal play, else a draw. */
export async function oneMove(bySeat: Map<number, GqlClient>, matchId: string): Promise<void> {
  for (const client of bySeat.values()) {
    const m = (
      await client.request<{
        match: { status: string; version: number; turn: number; mySeat: number; legalMoves: { tile: unknown; end: unknown }[] };
      }>(Q_MINE, { id: matchId })
    ).match;
    if (m.status !== 'IN_PROGRESS') throw new Error(`match is ${m.status}`);
    if (m.turn !== m.mySeat) continue;
    if (m.legalMoves.length > 0)
      await client.request(M_PLAY, { input: { matchId, tile: m.legalMoves[0].tile, end: m.legalMoves[0].end, expectedVersion: m.version } });
    else await client.request(M_DRAW, { input: { matchId, expectedVersion: m.version } });
    return;
  }
}
