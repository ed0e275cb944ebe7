/** `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the embedded database). */
import { applyMigrations } from '../src/database/migrate.js';
import { withDatabase } from './with-database.js';

await withDatabase('cannot migrate', async (url) => {
  const { applied, warnings } = await applyMigrations(url);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
  for (const warning of warnings) console.warn(`warning: ${warning}`);
});
