import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Test databases: one template, migrated once per run by the global setup; every test file then
 * gets its own copy (CREATE DATABASE … TEMPLATE, a file copy in PostgreSQL), so files never see
 * each other's rows and can run in parallel.
 *
 * The template's name is new in every run (the global setup hands it to the suites in
 * TEST_PG_TEMPLATE): two runs against one PostgreSQL server (two checkouts, or CI beside a
 * developer's run on the same machine) each drop only their own, and never copy the other's.
 */
export function newTemplateName(): string {
  return uniqueName('dominoes_test_template');
}

/**
 * A database name no other run or test file has: the prefix, the time of its creation (seconds
 * since the epoch, base 36: what lets a later run tell a leftover from a live one) and 12 random
 * hex digits.
 */
function uniqueName(prefix: string, now = Date.now()): string {
  return `${prefix}_${Math.floor(now / 1000).toString(36)}_${randomBytes(6).toString('hex')}`;
}

/** This suite's databases, templates among them; the group is the creation time. */
const TEST_DATABASE = /^dominoes_test_(?:template_)?([0-9a-z]+)_[0-9a-f]{12}$/;

/** Far longer than any run takes (CI's whole budget is 90 minutes). */
export const LEFTOVER_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Drops the test databases a run that was killed (Ctrl-C mid-run, a CI job cancelled) left on a
 * shared PostgreSQL server: each is a full copy of the schema, and nothing else would ever drop
 * them. Only those created more than `olderThanMs` ago, so a run going on beside this one keeps
 * its own. Returns the names dropped.
 */
export async function dropLeftoverTestDatabases(serverUrl: string, olderThanMs = LEFTOVER_AGE_MS, now?: number): Promise<string[]> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    // Aged by the database server's clock (one for every run that uses it), and never one with a
    // session open: a run that still uses its database is not done with it.
    const { rows } = await client.query<{ datname: string; now: string }>(
      String.raw`SELECT d.datname, extract(epoch FROM now()) * 1000 AS now FROM pg_database d
                 WHERE d.datname LIKE 'dominoes\_test\_%'
                   AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datname = d.datname)`,
    );
    const leftovers = rows
      .filter((row) => {
        const stamp = TEST_DATABASE.exec(row.datname)?.[1];
        return stamp !== undefined && (now ?? Number(row.now)) - parseInt(stamp, 36) * 1000 > olderThanMs;
      })
      .map((row) => row.datname);
    const dropped: string[] = [];
    for (const name of leftovers) {
      // Another run may sweep it at the same moment, or it may belong to another role: not this run's concern.
      await client.query(`DROP DATABASE IF EXISTS "${name}"`).then(
        () => dropped.push(name),
        (e: unknown) => console.warn(`left test database ${name} in place: ${e instanceof Error ? e.message : String(e)}`),
      );
    }
    return dropped;
  } finally {
    await client.end();
  }
}

/** A test database's name as it would have been given at `createdAt`: for the leftover sweep's test. */
export function testDatabaseNameAt(createdAt: number): string {
  return uniqueName('dominoes_test', createdAt);
}

function templateName(): string {
  const name = process.env.TEST_PG_TEMPLATE;
  if (!name) throw new Error('TEST_PG_TEMPLATE is not set: the e2e global setup (test/setup/global-setup.mjs) creates the template');
  return name;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}

export async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh database copied from the migrated template; returns its URL. */
export async function createTestDatabase(serverUrl: string): Promise<string> {
  const name = uniqueName('dominoes_test');
  await adminQuery(serverUrl, `CREATE DATABASE "${name}" TEMPLATE "${templateName()}"`);
  return withDatabase(serverUrl, name);
}

export async function dropTestDatabase(serverUrl: string, url: string): Promise<void> {
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${databaseName(url)}" WITH (FORCE)`);
}
