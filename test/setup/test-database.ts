import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Test databases: one template, migrated once per run by the global setup; every test file then
 * gets its own copy (CREATE DATABASE … TEMPLATE, a file copy in PostgreSQL), so files never see
 * each other's rows and can run in parallel.
 */
export const TEMPLATE_DB = 'dominoes_test_template';

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
  const name = `dominoes_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE_DB}"`);
  return withDatabase(serverUrl, name);
}

export async function dropTestDatabase(serverUrl: string, url: string): Promise<void> {
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${databaseName(url)}" WITH (FORCE)`);
}
