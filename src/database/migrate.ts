import type { SchemaEngine } from '@prisma/schema-engine-wasm';
import pg from 'pg';
import { StartupRefusal } from '../common/start-failure.js';
import { MIGRATIONS_DIR, NO_FILTERS, readMigrations, withSchemaEngine } from './schema-engine.js';

/** What a start-up or `npm run db:migrate` did to the database, and what it should tell an operator. */
export interface MigrationOutcome {
  /** The migrations applied now, in order (empty when the database was up to date). */
  applied: string[];
  /** Things to look at that do not stop the server, one sentence each. */
  warnings: string[];
}

/** Where the recovery of a failed migration is described. */
const RECOVERY = 'docs/operations.md, "Upgrading and rolling back"';

/**
 * Applies every pending `prisma/migrations/<name>/migration.sql` in order, like `prisma migrate deploy`.
 *
 * Refused first, in words, when a migration failed earlier (PostgreSQL ran its statements one by
 * one, so part of it may have been applied): the engine would refuse too, with a message that
 * names a CLI this project cannot download. After applying, the history is compared with the
 * files: migrations the database has and this version does not (a newer version migrated it),
 * and migrations whose applied text differs from the file, are warned about.
 */
export async function applyMigrations(connectionString: string): Promise<MigrationOutcome> {
  const migrationsList = await readMigrations();
  if (migrationsList.migrationDirectories.length === 0) throw new Error(`no migrations found in ${MIGRATIONS_DIR}`);
  return withSchemaEngine(connectionString, async (engine) => {
    const before = await diagnose(engine);
    if (before.failedMigrationNames.length > 0) {
      const names = before.failedMigrationNames.join(', ');
      throw new StartupRefusal(
        `migration ${names} failed earlier and may be partly applied: finish or undo it by hand, then mark it with npm run db:resolve (see ${RECOVERY})`,
      );
    }
    const pending = before.history && before.history.diagnostic !== 'migrationsDirectoryIsBehind' ? before.history.unappliedMigrationNames : [];
    await refuseDestructiveUpgrades(connectionString, pending);
    const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: NO_FILTERS }).catch((e: unknown) => {
      // The engine's message ends in its own Rust backtrace ("0: sql_schema_connector…"): the cause is the first part.
      const cause = (e instanceof Error ? e.message : String(e))
        .split(/\s+0: /)[0]
        .replace(/\s+/g, ' ')
        .trim();
      throw new StartupRefusal(`a migration failed: ${cause}; what it applied stays, and it must be settled as ${RECOVERY} says`);
    });
    return { applied: appliedMigrationNames, warnings: historyWarnings(await diagnose(engine)) };
  });

  function diagnose(engine: SchemaEngine) {
    return engine.diagnoseMigrationHistory({ migrationsList, optInToShadowDatabase: false, filters: NO_FILTERS });
  }
}

/** Marks a failed migration rolled back (it will run again) or applied (it was finished by hand). */
export async function resolveMigration(connectionString: string, name: string, as: 'rolled-back' | 'applied'): Promise<void> {
  const migrationsList = await readMigrations();
  await withSchemaEngine(connectionString, (engine) =>
    as === 'applied' ? engine.markMigrationApplied({ migrationName: name, migrationsList }) : engine.markMigrationRolledBack({ migrationName: name }),
  );
}

function historyWarnings(d: Awaited<ReturnType<SchemaEngine['diagnoseMigrationHistory']>>): string[] {
  const warnings: string[] = [];
  const unknown = d.history && d.history.diagnostic !== 'databaseIsBehind' ? d.history.unpersistedMigrationNames : [];
  if (unknown.length > 0)
    warnings.push(
      `the database has migrations this version does not know (${unknown.join(', ')}): a newer version migrated it; running an older version on it is supported only as ${RECOVERY} says`,
    );
  if (d.editedMigrationNames.length > 0)
    warnings.push(`the text of migrations ${d.editedMigrationNames.join(', ')} differs from what was applied to this database (${RECOVERY})`);
  return warnings;
}

/**
 * Migrations written before any deployment existed, which drop data an older database may hold:
 * they are not applied to a database that holds it. Deleting it is left to its operator.
 */
const DESTRUCTIVE = [
  {
    migration: '20261201012000_fair_deals',
    holds: `SELECT EXISTS (SELECT 1 FROM "Match") AS found`,
    refusal:
      'this database holds matches from before provably fair deals (stored before 2026-12-01), which the migration 20261201012000_fair_deals would delete: they were dealt from seeds the new scheme cannot verify or continue. Keep running the older version, or export what you need and delete them yourself (TRUNCATE "Match", "PlayerStats" CASCADE keeps players and their tokens), then start again',
  },
];

async function refuseDestructiveUpgrades(connectionString: string, pending: readonly string[]): Promise<void> {
  const guards = DESTRUCTIVE.filter((d) => pending.includes(d.migration));
  if (guards.length === 0) return;
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    for (const guard of guards) {
      // No table yet (the migrations that create it are pending too): nothing to lose.
      const found = await client.query<{ found: boolean }>(guard.holds).then(
        ({ rows }) => rows[0].found,
        (e: { code?: string }) => (e.code === '42P01' ? false : Promise.reject(e as Error)),
      );
      if (found) throw new StartupRefusal(guard.refusal);
    }
  } finally {
    await client.end();
  }
}
