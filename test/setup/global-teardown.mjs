import { rm } from 'node:fs/promises';
import { adminQuery } from '../../dist/test/setup/test-database.js';

export default async function globalTeardown() {
  const serverUrl = process.env.TEST_PG_SERVER_URL;
  const template = process.env.TEST_PG_TEMPLATE;
  if (serverUrl && template) await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`).catch(() => {});
  await globalThis.__embeddedPg?.stop();
  // The embedded cluster's files (some 60 MB) go with it.
  if (globalThis.__embeddedPgDir) await rm(globalThis.__embeddedPgDir, { recursive: true, force: true });
}
