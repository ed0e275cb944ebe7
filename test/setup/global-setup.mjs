// Runs once per `npm test`, before any suite. Jest loads global setup outside its TypeScript
// transform, so this file is plain ESM over the compiled service (`npm test` builds first).
import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbedded } from '../../dist/src/database/database-url.js';
import { applyMigrations } from '../../dist/src/database/migrate.js';
import { adminQuery, databaseName, dropLeftoverTestDatabases, newTemplateName, withDatabase } from '../../dist/test/setup/test-database.js';

/**
 * Finds the PostgreSQL server the e2e suites use — DATABASE_URL's (whose database name must
 * contain "test": these suites create and drop databases) or a throwaway embedded one — and
 * migrates this run's template database, which every test file copies.
 */
export default async function globalSetup() {
  let serverUrl;
  const given = process.env.DATABASE_URL;
  if (given) {
    const name = databaseName(given);
    if (!/test/i.test(name)) throw new Error(`refusing to run tests against database "${name}": its name must contain "test"`);
    serverUrl = given;
  } else {
    const dir = await mkdtemp(join(tmpdir(), 'dominoes-test-pg-'));
    await chmod(dir, 0o755); // PostgreSQL runs as its own unprivileged user
    const db = await startEmbedded(join(dir, 'data'), 0, 'test');
    globalThis.__embeddedPg = db;
    globalThis.__embeddedPgDir = dir;
    serverUrl = db.url;
  }
  if (given) await dropLeftoverTestDatabases(serverUrl);
  const template = newTemplateName();
  // From template0, not template1: always pristine, and never "being accessed by other users" on a
  // shared server where someone is connected to template1.
  await adminQuery(serverUrl, `CREATE DATABASE "${template}" TEMPLATE template0`);
  await applyMigrations(withDatabase(serverUrl, template));
  process.env.TEST_PG_SERVER_URL = serverUrl;
  process.env.TEST_PG_TEMPLATE = template;
}
