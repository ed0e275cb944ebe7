import pg from 'pg';
import { adminQuery, dropLeftoverTestDatabases, LEFTOVER_AGE_MS, testDatabaseNameAt } from './setup/test-database.js';

/**
 * The suite's own housekeeping on a shared PostgreSQL server: a run that was killed leaves its
 * databases behind, and the next run's global setup drops those old enough that no live run can
 * own them, and nothing else.
 */
const serverUrl = () => process.env.TEST_PG_SERVER_URL!;

async function databaseNames(): Promise<string[]> {
  const client = new pg.Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    return (await client.query<{ datname: string }>('SELECT datname FROM pg_database')).rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

describe('test databases left by a killed run', () => {
  const now = Date.now();
  const leftover = testDatabaseNameAt(now - LEFTOVER_AGE_MS - 60_000);
  const recent = testDatabaseNameAt(now - LEFTOVER_AGE_MS + 60_000);
  const foreign = 'dominoes_test_kept_by_someone';

  afterAll(async () => {
    for (const name of [leftover, recent, foreign]) await adminQuery(serverUrl(), `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });

  it('drops those created longer ago than any run lasts, and keeps the rest', async () => {
    for (const name of [leftover, recent, foreign]) await adminQuery(serverUrl(), `CREATE DATABASE "${name}" TEMPLATE template0`);

    const dropped = await dropLeftoverTestDatabases(serverUrl(), LEFTOVER_AGE_MS, now);

    // Older leftovers of other runs on this server may go too.
    expect(dropped).toContain(leftover);
    expect(dropped).not.toEqual(expect.arrayContaining([recent]));
    const names = await databaseNames();
    expect(names).not.toContain(leftover);
    expect(names).toEqual(expect.arrayContaining([recent, foreign, process.env.TEST_PG_TEMPLATE]));
  });
});
