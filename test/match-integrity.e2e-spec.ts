import pg from 'pg';
import { startTestApp, type TestApp } from './support/app.js';
import type { GqlClient } from './support/gql.js';

const M_CREATE = `mutation($input: CreateMatchInput!) { createMatch(input: $input) { id status seats { index player { id } } } }`;
const M_JOIN = `mutation($id: ID!) { joinMatch(matchId: $id) { id status } }`;
const M_RESIGN = `mutation($id: ID!) { resignMatch(matchId: $id) { status winner { index } } }`;
const Q_STATS = `query($id: ID!) { playerStats(playerId: $id) { matchesPlayed matchesWon } leaderboard { totalCount } }`;
const Q_TURN = `query($id: ID!) { match(id: $id) { version turn currentRound { number } legalMoves { tile { high low } end } canDraw } }`;

describe('createMatch is atomic', () => {
  let app: TestApp;
  let db: pg.Client;
  beforeAll(async () => {
    app = await startTestApp();
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await app.close();
  });

  const rows = async () =>
    (
      await db.query<{ matches: number; seats: number; teams: number }>(
        `SELECT (SELECT count(*)::int FROM "Match") AS matches, (SELECT count(*)::int FROM "Seat") AS seats, (SELECT count(*)::int FROM "Team") AS teams`,
      )
    ).rows[0];

  it('leaves no match behind when its first event cannot be written (a crash between the two writes)', async () => {
    const ann = await app.player('ann');
    // The creator's PLAYER_JOINED event is the second write of a create: make it fail.
    await db.query(`CREATE FUNCTION fail_event() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'simulated failure'; END $$ LANGUAGE plpgsql`);
    await db.query(`CREATE TRIGGER fail_event BEFORE INSERT ON "MatchEvent" FOR EACH ROW EXECUTE FUNCTION fail_event()`);
    try {
      expect(await ann.errorCode(M_CREATE, { input: { seats: 2 } })).toBe('INTERNAL_SERVER_ERROR');
      expect(await ann.errorCode(M_CREATE, { input: { seats: 2, bots: 1 } })).toBe('INTERNAL_SERVER_ERROR');
      expect(await rows()).toEqual({ matches: 0, seats: 0, teams: 0 });
    } finally {
      await db.query(`DROP TRIGGER fail_event ON "MatchEvent"; DROP FUNCTION fail_event()`);
    }
    const { createMatch } = await ann.request<{ createMatch: { status: string; seats: { index: number; player: { id: string } | null }[] } }>(
      M_CREATE,
      {
        input: { seats: 2 },
      },
    );
    expect(createMatch.status).toBe('WAITING');
    expect(createMatch.seats[0].player?.id).toBe(ann.id);
    expect(await rows()).toEqual({ matches: 1, seats: 2, teams: 2 });
  });
});

describe('a match resigned before its first round ended earns nobody anything', () => {
  let app: TestApp;
  let ann: GqlClient;
  let bob: GqlClient;
  beforeAll(async () => {
    app = await startTestApp();
    ann = await app.player('ann');
    bob = await app.player('bob');
  });
  afterAll(() => app.close());

  async function newMatch(input: Record<string, unknown>): Promise<string> {
    const { createMatch } = await ann.request<{ createMatch: { id: string } }>(M_CREATE, { input });
    await bob.request(M_JOIN, { id: createMatch.id });
    return createMatch.id;
  }

  it('create–join–resign twenty times: FINISHED with a winner, but no stats and an empty leaderboard', async () => {
    for (let i = 0; i < 20; i++) {
      const id = await newMatch({ seats: 2 });
      expect((await ann.request<{ resignMatch: { status: string; winner: { index: number } } }>(M_RESIGN, { id })).resignMatch).toEqual({
        status: 'FINISHED',
        winner: { index: 1 },
      });
    }
    const { playerStats, leaderboard } = await app.anon.request<{
      playerStats: { matchesPlayed: number; matchesWon: number };
      leaderboard: { totalCount: number };
    }>(Q_STATS, { id: bob.id });
    expect(playerStats).toEqual({ matchesPlayed: 0, matchesWon: 0 });
    expect(leaderboard.totalCount).toBe(0);
  });

  it('a resignation after the first round ended counts as usual', async () => {
    const id = await newMatch({ seats: 2, rules: { targetScore: 10_000 } });
    const bySeat = [ann, bob];
    for (let commands = 0; ; commands++) {
      const m = (
        await ann.request<{ match: { turn: number; currentRound: { number: number } } }>(Q_TURN, {
          id,
        })
      ).match;
      if (m.currentRound.number >= 2) break;
      if (commands > 500) throw new Error('round 1 did not end');
      const client = bySeat[m.turn];
      const mine = (
        await client.request<{ match: { version: number; legalMoves: { tile: unknown; end: string | null }[]; canDraw: boolean } }>(Q_TURN, { id })
      ).match;
      if (mine.legalMoves.length > 0) {
        const move = mine.legalMoves[0];
        await client.request(`mutation($input: PlayTileInput!) { playTile(input: $input) { id } }`, {
          input: { matchId: id, tile: move.tile, end: move.end, expectedVersion: mine.version },
        });
      } else {
        await client.request(`mutation($input: TurnInput!) { drawTile(input: $input) { id } }`, {
          input: { matchId: id, expectedVersion: mine.version },
        });
      }
    }
    await ann.request(M_RESIGN, { id });
    const { playerStats, leaderboard } = await app.anon.request<{
      playerStats: { matchesPlayed: number; matchesWon: number };
      leaderboard: { totalCount: number };
    }>(Q_STATS, { id: bob.id });
    expect(playerStats).toEqual({ matchesPlayed: 1, matchesWon: 1 });
    expect(leaderboard.totalCount).toBe(2);
  });
});
