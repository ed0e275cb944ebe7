import { MIGRATIONS_DIR, NO_FILTERS, readMigrations, withSchemaEngine } from './schema-engine.js';

/**
 * Applies every pending `prisma/migrations/<name>/migration.sql` in order, like `prisma migrate deploy`.
 * Returns the names applied now (empty when the database was up to date).
 */
export async function applyMigrations(connectionString: string): Promise<string[]> {
  const migrationsList = await readMigrations();
  if (migrationsList.migrationDirectories.length === 0) throw new Error(`no migrations found in ${MIGRATIONS_DIR}`);
  const out = await withSchemaEngine(connectionString, (engine) => engine.applyMigrations({ migrationsList, filters: NO_FILTERS }));
  return out.appliedMigrationNames;
}
