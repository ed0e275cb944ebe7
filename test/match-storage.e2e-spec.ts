import pg from 'pg';
import { MatchCache } from '../src/matches/match-cache.js';
import { MatchesRepository } from '../src/matches/matches.repository.js';
import { startTestApp, type TestApp } from './support/app.js';
import { lcg } from './support/driver.js';
import { M_CREATE, M_JOIN, type MatchT } from './support/fragments.js';
import type { GqlClient } from './support/gql.js';

const Q_MOVER = `query($id: ID!) { match(id: $id) { status version turn legalMoves { tile { high low } end } } }`;

/**
 * How the match row stores its state: without the current round's move log, which every read
 * takes from `Move` (src/matches/stored-state.ts), and compressed with lz4 where the server has it
 * (prisma/migrations/*_state_lz4); the migration still applies, leaving pglz, where it does not
 * (the embedded PostgreSQL's binaries are built without lz4; this machine's PostgreSQL has it).
 */
describe('Match.state storage', () => {
  let app: TestApp;
  let db: pg.Client;
  let lz4: boolean;

  beforeAll(async () => {
    app = await startTestApp();
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    try {
      await db.query('CREATE TEMP TABLE lz4_probe (v text COMPRESSION lz4)');
      lz4 = true;
    } catch (e) {
      // "compression method lz4 not supported": feature_not_supported
      if ((e as { code?: string }).code !== '0A000') throw e;
      lz4 = false;
    }
  });

  afterAll(async () => {
    await db?.end();
    await app?.close();
  });

  /** A 2-player match of two humans, each seat with its client. */
  async function duel(rules: Record<string, unknown> = {}): Promise<{ id: string; bySeat: Map<number, GqlClient> }> {
    const players = await Promise.all([app.player(), app.player()]);
    const { createMatch } = await players[0].request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2, rules } });
    const bySeat = new Map<number, GqlClient>([[0, players[0]]]);
    bySeat.set((await players[1].request<{ joinMatch: MatchT }>(M_JOIN, { id: createMatch.id })).joinMatch.mySeat!, players[1]);
    return { id: createMatch.id, bySeat };
  }

  /** The seat to move plays one of its legal moves (chosen by `rnd`), or draws. */
  async function move(id: string, mover: GqlClient, rnd: () => number): Promise<void> {
    const view = (await mover.request<{ match: MatchT }>(Q_MOVER, { id })).match;
    const input = { matchId: id, expectedVersion: view.version };
    if (view.legalMoves.length > 0) {
      const mv = view.legalMoves[Math.floor(rnd() * view.legalMoves.length)];
      await mover.request('mutation($i: PlayTileInput!) { playTile(input: $i) { version } }', { i: { ...input, tile: mv.tile, end: mv.end } });
    } else {
      await mover.request('mutation($i: TurnInput!) { drawTile(input: $i) { version } }', { i: input });
    }
  }

  it("stores no move log in the state, and a read from the database gives the engine's state after every command", async () => {
    // A low target and a large reserve: several rounds, with draws, passes and round ends, in one match.
    const { id, bySeat } = await duel({ targetScore: 60, reserve: 12 });
    const cache = app.server.app.get(MatchCache);
    const repo = app.server.app.get(MatchesRepository);
    const rnd = lcg(7);
    const seen = { rounds: new Set<number>(), types: new Set<string>() };
    for (;;) {
      // What the server holds after its own commit is the engine's state; the database must give it back.
      const held = cache.get(id)!.state!;
      expect((await repo.find(id))!.state).toEqual(held);
      const { rows } = await db.query<{ logged: boolean }>(`SELECT ("state"->'round'->'moves') IS NOT NULL AS logged FROM "Match" WHERE "id" = $1`, [
        id,
      ]);
      expect(rows[0].logged).toBe(false);
      seen.rounds.add(held.round.number);
      for (const m of held.round.moves) seen.types.add(m.type);
      if (held.status !== 'IN_PROGRESS') break;
      await move(id, bySeat.get(held.round.turn)!, rnd);
    }
    expect(seen.rounds.size).toBeGreaterThan(1);
    expect([...seen.types].sort()).toEqual(['DRAW', 'PASS', 'PLAY']);
  });

  it('reads a state written with its move log (before the log left the state) as the same state', async () => {
    const { id, bySeat } = await duel();
    const repo = app.server.app.get(MatchesRepository);
    const rnd = lcg(11);
    for (let i = 0; i < 3; i++) await move(id, bySeat.get((await repo.find(id))!.state!.round.turn)!, rnd);
    const state = (await repo.find(id))!.state!;
    expect(state.round.moves.length).toBeGreaterThan(0);
    await db.query(`UPDATE "Match" SET "state" = $2::json WHERE "id" = $1`, [id, JSON.stringify(state)]);
    expect((await repo.find(id))!.state).toEqual(state);
  });

  it('sets lz4 on the state column exactly when the server supports it', async () => {
    const { rows } = await db.query<{ compression: string }>(
      `SELECT attcompression AS compression FROM pg_attribute WHERE attrelid = '"Match"'::regclass AND attname = 'state'`,
    );
    expect(rows[0].compression).toBe(lz4 ? 'l' : '');
  });

  it('compresses a state past 2 KB with that method', async () => {
    // Two humans: no bot commits a new state over the padded one before it is read back.
    const { id } = await duel();
    // A state past the 2 KB at which PostgreSQL compresses a value.
    await db.query(`UPDATE "Match" SET "state" = json_build_object('s', "state", 'pad', repeat('0123456789', 400)) WHERE "id" = $1`, [id]);
    const { rows } = await db.query<{ method: string }>(`SELECT pg_column_compression("state") AS method FROM "Match" WHERE "id" = $1`, [id]);
    expect(rows[0].method).toBe(lz4 ? 'lz4' : 'pglz');
  });
});
