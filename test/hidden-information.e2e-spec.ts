import { PrismaService } from '../src/database/prisma.service.js';
import { tileKey, type MatchState, type Tile } from '../src/domain/index.js';
import { startTestApp, type TestApp } from './support/app.js';
import { lcg, viewOf } from './support/driver.js';
import { M_CREATE, M_JOIN, MATCH_FIELDS, ROUND_FIELDS, type MatchT } from './support/fragments.js';
import type { GqlClient } from './support/gql.js';

interface ShownRound {
  number: number;
  status: string;
  moves: { seq: number; seat: number; type: string; tile: Tile | null }[];
}
interface ShownMatch {
  status: string;
  currentRound: ShownRound | null;
  rounds: ShownRound[];
}
const SHOWN_ROUND = 'number status moves { seq seat type tile { high low } }';
const Q_SHOWN = `query($id: ID!) { match(id: $id) { status currentRound { ${SHOWN_ROUND} } rounds { ${SHOWN_ROUND} } } }`;

/** Every query a player can send that returns match data, each asking for every field. */
const QUERIES = [
  `query($id: ID!) { match(id: $id) { ${MATCH_FIELDS} } } ${ROUND_FIELDS}`,
  `query { matches(first: 50) { edges { node { ${MATCH_FIELDS} } } } } ${ROUND_FIELDS}`,
  `query($pid: ID) { matches(playerId: $pid, status: IN_PROGRESS) { edges { node { ${MATCH_FIELDS} } } } } ${ROUND_FIELDS}`,
];

/** All tiles in a response, leaving out rounds already over (their hands are public by then). */
function tilesIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => tilesIn(v, out));
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.high === 'number' && typeof o.low === 'number') out.push(tileKey(o as unknown as Tile));
    if (o.status === 'FINISHED' && 'result' in o && 'moves' in o) return out; // a finished round
    Object.values(o).forEach((v) => tilesIn(v, out));
  }
  return out;
}

describe('hidden information', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('no response shows a tile of another seat’s live hand or of the boneyard', async () => {
    const players = await Promise.all([0, 1, 2].map((i) => app.player(`h${i}`)));
    const spectator = await app.player('spectator');
    const { createMatch } = await players[0].request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 3, rules: { handSize: 5 } } });
    const bySeat = new Map<number, GqlClient>([[0, players[0]]]);
    for (const p of players.slice(1)) bySeat.set((await p.request<{ joinMatch: MatchT }>(M_JOIN, { id: createMatch.id })).joinMatch.mySeat!, p);
    const prisma = app.server.app.get(PrismaService);
    const rnd = lcg(99);
    let checks = 0;
    for (let step = 0; step < 60; step++) {
      const state = (await prisma.match.findUniqueOrThrow({ where: { id: createMatch.id } })).state as unknown as MatchState;
      if (state.status !== 'IN_PROGRESS') break;
      if (state.round.status === 'IN_PROGRESS') {
        const boneyard = new Set(state.round.boneyard.map(tileKey));
        const viewers: [number | null, GqlClient][] = [
          ...[...bySeat].map(([s, c]) => [s, c] as [number, GqlClient]),
          [null, spectator],
          [null, app.anon],
        ];
        for (const [seat, client] of viewers) {
          const secret = new Set(boneyard);
          state.round.hands.forEach((hand, s) => s !== seat && hand.forEach((t) => secret.add(tileKey(t))));
          for (const q of QUERIES) {
            const res = await client.raw(q, { id: createMatch.id, pid: client.me?.id ?? null });
            expect(res.body.errors).toBeUndefined();
            const leaked = tilesIn(res.body.data).filter((t) => secret.has(t));
            expect({ seat, q: q.slice(0, 40), leaked }).toEqual({ seat, q: q.slice(0, 40), leaked: [] });
            checks++;
          }
        }
      }
      // Advance one move.
      const mover = bySeat.get(state.round.turn)!;
      const me = await viewOf(mover, createMatch.id);
      if (me.legalMoves.length > 0) {
        const mv = me.legalMoves[Math.floor(rnd() * me.legalMoves.length)];
        await mover.request('mutation($i: PlayTileInput!) { playTile(input: $i) { version } }', {
          i: { matchId: createMatch.id, tile: mv.tile, end: mv.end },
        });
      } else await mover.request('mutation($i: TurnInput!) { drawTile(input: $i) { version } }', { i: { matchId: createMatch.id } });
    }
    expect(checks).toBeGreaterThan(100);
  });

  it('a draw shows its tile to its drawer while the round is live, and to everyone once it is over', async () => {
    const a = await app.player('ra');
    const b = await app.player('rb');
    const spectator = await app.player('rs');
    // Long enough (several rounds) that the random deals all but surely bring draws while a round is
    // live (to 100, about 1 simulated match in 800 had none; to 150, more rounds make that far rarer).
    const { createMatch } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2, rules: { targetScore: 150 } } });
    await b.request(M_JOIN, { id: createMatch.id });
    const id = createMatch.id;
    const bySeat = new Map<number, GqlClient>([
      [0, a],
      [1, b],
    ]);
    const viewers: [number | null, GqlClient][] = [
      [0, a],
      [1, b],
      [null, spectator],
      [null, app.anon],
    ];
    const prisma = app.server.app.get(PrismaService);
    const rnd = lcg(5);
    // Draws checked: [hidden from a viewer in a live round, shown to its drawer live, shown to another once over].
    const seen = { hidden: 0, ownLive: 0, overToOthers: 0 };
    let final: ShownMatch | null = null;
    for (let step = 0; step < 2000 && !final; step++) {
      const stored = await prisma.move.findMany({ where: { matchId: id }, orderBy: { seq: 'asc' } });
      const byseq = new Map(stored.map((m) => [m.seq, m]));
      for (const [seat, client] of viewers) {
        const m = (await client.request<{ match: ShownMatch }>(Q_SHOWN, { id })).match;
        const over = (r: ShownRound) => r.status !== 'IN_PROGRESS' || m.status === 'FINISHED';
        for (const r of [...m.rounds, ...(m.currentRound ? [m.currentRound] : [])])
          for (const mv of r.moves) {
            const row = byseq.get(mv.seq)!;
            const tile = row.tileHigh === null ? null : { high: row.tileHigh, low: row.tileLow! };
            const shown = mv.type !== 'DRAW' || mv.seat === seat || over(r);
            // What is shown is the stored tile itself; what is not shown is null.
            expect({ seat, seq: mv.seq, tile: mv.tile }).toEqual({ seat, seq: mv.seq, tile: shown ? tile : null });
            if (mv.type === 'DRAW' && r === m.currentRound) {
              if (!shown) seen.hidden++;
              else if (mv.seat === seat && !over(r)) seen.ownLive++;
            }
            if (mv.type === 'DRAW' && mv.seat !== seat && over(r)) seen.overToOthers++;
          }
        // The round a match is in and the same round in the list are one round, shown alike.
        const listed = m.rounds.find((r) => r.number === m.currentRound?.number);
        expect(listed?.moves).toEqual(m.currentRound?.moves);
        if (m.status === 'FINISHED' && seat === null) final = m;
      }
      if (final) break;
      const state = (await prisma.match.findUniqueOrThrow({ where: { id } })).state as unknown as MatchState;
      const mover = bySeat.get(state.round.turn)!;
      const me = await viewOf(mover, id);
      if (me.legalMoves.length > 0) {
        const mv = me.legalMoves[Math.floor(rnd() * me.legalMoves.length)];
        await mover.request('mutation($i: PlayTileInput!) { playTile(input: $i) { version } }', { i: { matchId: id, tile: mv.tile, end: mv.end } });
      } else await mover.request('mutation($i: TurnInput!) { drawTile(input: $i) { version } }', { i: { matchId: id } });
    }
    expect(final).not.toBeNull();
    // A finished match: its last round shows every draw, in currentRound as in rounds.
    expect(final!.currentRound!.moves).toEqual(final!.rounds.at(-1)!.moves);
    expect(seen.hidden).toBeGreaterThan(0);
    expect(seen.ownLive).toBeGreaterThan(0);
    expect(seen.overToOthers).toBeGreaterThan(0);
  });
});
