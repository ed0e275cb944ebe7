/**
 * Writes the next migration from prisma/schema.prisma, offline (`npm run db:diff -- <name>`).
 * It migrates the database in DATABASE_URL (use a scratch one) to the latest migration, then asks
 * the schema engine for the SQL that takes that database to the schema, and saves it as
 * prisma/migrations/<timestamp>_<name>/migration.sql. With no migrations yet it diffs from empty.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { applyMigrations } from '../src/database/migrate.js';
import { MIGRATIONS_DIR, NO_FILTERS, readMigrations, readSchema, withSchemaEngine } from '../src/database/schema-engine.js';

const name = (process.argv[2] ?? '').replace(/[^a-z0-9_]/gi, '_');
const url = process.env.DATABASE_URL;
if (!name || !url) {
  console.error('usage: DATABASE_URL=postgresql://…/scratch npm run db:diff -- <migration_name>');
  process.exit(1);
}

const first = (await readMigrations()).migrationDirectories.length === 0;
if (!first) await applyMigrations(url);
const schema = await readSchema();
const result = await withSchemaEngine(url, (engine) =>
  engine.diff({
    from: first ? { tag: 'empty' } : { tag: 'url', url },
    to: { tag: 'schemaDatamodel', files: [schema] },
    script: true,
    exitCode: null,
    filters: NO_FILTERS,
  }),
);
const sql = result.stdout ?? '';
if (!sql.trim() || /^-- This is an empty migration/.test(sql.trim())) {
  console.log('schema and migrations agree: nothing to write');
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const dir = join(MIGRATIONS_DIR, `${stamp}_${name}`);
await mkdir(dir, { recursive: true });
await writeFile(join(dir, 'migration.sql'), sql);
if (first) await writeFile(join(MIGRATIONS_DIR, 'migration_lock.toml'), 'provider = "postgresql"\n');
console.log(`wrote ${dir}/migration.sql`);
