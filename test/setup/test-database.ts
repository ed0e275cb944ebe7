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

/** A database name no other run or test file has: the prefix and 12 random hex digits. */
function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
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
