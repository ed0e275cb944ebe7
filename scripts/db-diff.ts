/**
 * Writes the next migration from prisma/schema.prisma, offline: `npm run db:diff -- <name> [<git-rev>]`.
 *
 * It diffs the schema as committed at <git-rev> (default HEAD, i.e. before your edit) against the
 * working copy, with Prisma's own schema engine, and saves the SQL as
 * prisma/migrations/<timestamp>_<name>/migration.sql. With no migrations yet it diffs from empty.
 * (The WebAssembly engine cannot read a live database's schema back through the pg adapter, so
 * the committed schema is the "before" side; keep schema.prisma and the migrations committed together.)
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '../src/config/config.js';
import { startDatabase } from '../src/database/database-url.js';
import { MIGRATIONS_DIR, NO_FILTERS, readMigrations, readSchema, withSchemaEngine } from '../src/database/schema-engine.js';

const name = (process.argv[2] ?? '').replace(/[^a-z0-9_]/gi, '_');
const rev = process.argv[3] ?? 'HEAD';
if (!name) {
  console.error('usage: npm run db:diff -- <migration_name> [<git-rev of the schema before the change, default HEAD>]');
  process.exit(1);
}

const first = (await readMigrations()).migrationDirectories.length === 0;
const schema = await readSchema();
const before = first ? null : execFileSync('git', ['show', `${rev}:prisma/schema.prisma`], { encoding: 'utf8' });
// Diffing two datamodels reads no database, but the engine insists on a connection: DATABASE_URL,
// or the embedded database of `npm start`.
const db = await startDatabase(loadConfig(process.env));
const result = await withSchemaEngine(db.url, (engine) =>
  engine.diff({
    from: before === null ? { tag: 'empty' } : { tag: 'schemaDatamodel', files: [{ path: schema.path, content: before }] },
    to: { tag: 'schemaDatamodel', files: [schema] },
    script: true,
    exitCode: null,
    filters: NO_FILTERS,
  }),
);
await db.stop();
const sql = result.stdout ?? '';
if (!sql.trim() || /^-- This is an empty migration/.test(sql.trim())) {
  console.log(`prisma/schema.prisma and ${first ? 'an empty database' : rev} agree: nothing to write`);
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const dir = join(MIGRATIONS_DIR, `${stamp}_${name}`);
await mkdir(dir, { recursive: true });
await writeFile(join(dir, 'migration.sql'), sql);
if (first) await writeFile(join(MIGRATIONS_DIR, 'migration_lock.toml'), 'provider = "postgresql"\n');
console.log(`wrote ${dir}/migration.sql`);
