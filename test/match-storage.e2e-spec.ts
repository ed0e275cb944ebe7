import pg from 'pg';
import { startServer, type RunningServer } from '../src/bootstrap.js';
import { adminQuery, createTestDatabase, databaseName, dropTestDatabase } from './setup/test-database.js';
import { instanceConfig, startTestApp, UNLIMITED, type TestApp } from './support/app.js';
import { GqlClient } from './support/gql.js';
import { M_CREATE, M_JOIN } from './support/fragments.js';

/**
 * How the match row stores its state (prisma/migrations/*_state_lz4): compressed with lz4 where
 * the server has it, and the migration still applies, leaving pglz, where it does not (the
 * embedded PostgreSQL's binaries are built without lz4; this machine's PostgreSQL has it).
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

  it('sets lz4 on the state column exactly when the server supports it', async () => {
    const { rows } = await db.query<{ compression: string }>(
      `SELECT attcompression AS compression FROM pg_attribute WHERE attrelid = '"Match"'::regclass AND attname = 'state'`,
    );
    expect(rows[0].compression).toBe(lz4 ? 'l' : '');
  });

  it('compresses a state past 2 KB with that method', async () => {
    // Two humans, so that no bot commits a state over the padded one before it is read back.
    const [alice, bob] = await Promise.all([app.player('alice'), app.player('bob')]);
    const { createMatch } = await alice.request<{ createMatch: { id: string } }>(M_CREATE, { input: { seats: 2 } });
    await bob.request(M_JOIN, { id: createMatch.id });
    // A state as large as a long round's: past the 2 KB at which PostgreSQL compresses a value.
    await db.query(`UPDATE "Match" SET "state" = json_build_object('s', "state", 'pad', repeat('0123456789', 400)) WHERE "id" = $1`, [
      createMatch.id,
    ]);
    const { rows } = await db.query<{ method: string }>(`SELECT pg_column_compression("state") AS method FROM "Match" WHERE "id" = $1`, [
      createMatch.id,
    ]);
    expect(rows[0].method).toBe(lz4 ? 'lz4' : 'pglz');
  });
});

/**
 * The match's own times are written by the commit statement with now(), into columns without a
 * time zone, beside times the application writes in UTC: on a database whose time zone is not
 * UTC they must still be UTC, or a finished match ends hours before it began.
 */
describe('times on a database whose time zone is not UTC', () => {
  const pgServer = process.env.TEST_PG_SERVER_URL!;
  let databaseUrl: string;
  let server: RunningServer;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase(pgServer);
    await adminQuery(pgServer, `ALTER DATABASE "${databaseName(databaseUrl)}" SET timezone TO 'Pacific/Kiritimati'`);
    server = await startServer(instanceConfig(databaseUrl, UNLIMITED), { logger: false });
  });

  afterAll(async () => {
    await server?.close();
    await dropTestDatabase(pgServer, databaseUrl);
  });

  it('stores a match started, finished and updated in UTC, as it stores its creation', async () => {
    const url = server.url;
    const register = 'mutation($n: String!) { registerPlayer(name: $n) { token } }';
    const [a, b] = await Promise.all(
      ['tz-a', 'tz-b'].map(
        async (n) =>
          new GqlClient(url, (await new GqlClient(url).request<{ registerPlayer: { token: string } }>(register, { n })).registerPlayer.token),
      ),
    );
    const { createMatch } = await a.request<{ createMatch: { id: string } }>(M_CREATE, { input: { seats: 2 } });
    await b.request(M_JOIN, { id: createMatch.id });
    await a.request('mutation($id: ID!) { resignMatch(matchId: $id) { status } }', { id: createMatch.id });
    const db = new pg.Client({ connectionString: databaseUrl, options: '-c TimeZone=UTC' });
    await db.connect();
    try {
      const { rows } = await db.query<{ created: number; started: number; finished: number; updated: number }>(
        `SELECT extract(epoch FROM "createdAt") AS created, extract(epoch FROM "startedAt") AS started,
                extract(epoch FROM "finishedAt") AS finished, extract(epoch FROM "updatedAt") AS updated
         FROM "Match" WHERE "id" = $1`,
        [createMatch.id],
      );
      const now = Date.now() / 1000;
      // Kiritimati is 14 hours ahead of UTC: a local time stored as UTC would be that far off.
      for (const t of Object.values(rows[0])) expect(Math.abs(Number(t) - now)).toBeLessThan(600);
    } finally {
      await db.end();
    }
  });
});
