import { adminQuery, TEMPLATE_DB } from '../../dist/test/setup/test-database.js';

export default async function globalTeardown() {
  const serverUrl = process.env.TEST_PG_SERVER_URL;
  if (serverUrl) await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${TEMPLATE_DB}" WITH (FORCE)`).catch(() => {});
  await globalThis.__embeddedPg?.stop();
}
