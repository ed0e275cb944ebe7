import pg from 'pg';
import { startTestApp, type TestApp } from './support/app.js';
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
