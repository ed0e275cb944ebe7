/**
 * `npm run db:resolve -- --rolled-back <migration>` or `-- --applied <migration>`: records how a
 * failed migration was settled by hand, as `prisma migrate resolve` does (docs/operations.md,
 * "Upgrading and rolling back"). Rolled back: it runs again at the next migration. Applied: it
 * is taken as done.
 */
import { resolveMigration } from '../src/database/migrate.js';
import { withDatabase } from './with-database.js';

const [flag, name] = process.argv.slice(2);
if ((flag !== '--rolled-back' && flag !== '--applied') || !name) {
  console.error('usage: npm run db:resolve -- --rolled-back <migration> | --applied <migration>');
  process.exit(2);
}
await withDatabase(`cannot resolve ${name}`, async (url) => {
  await resolveMigration(url, name, flag === '--applied' ? 'applied' : 'rolled-back');
  console.log(`${name} marked ${flag.slice(2)}`);
});
