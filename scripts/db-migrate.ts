/** `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the embedded database). */
import { loadConfig } from '../src/config/config.js';
import { startDatabase } from '../src/database/database-url.js';
import { applyMigrations } from '../src/database/migrate.js';

const config = loadConfig(process.env);
const db = await startDatabase(config);
try {
  const applied = await applyMigrations(db.url);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
} finally {
  await db.stop();
}
