import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import * as bg from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';

/**
 * Prisma's own schema engine, compiled to WebAssembly. The Prisma CLI would download a native
 * engine for `migrate`, and that download is unreachable from this project's machines; the wasm
 * build ships inside an npm package and records migrations in `_prisma_migrations` exactly as
 * `prisma migrate deploy` does, so a connected machine can still use the ordinary CLI.
 *
 * Node 20 only loads `.wasm` ES modules behind a flag, so the bytes are instantiated by hand.
 */
let wasmReady: Promise<void> | undefined;

/** The slice of the WebAssembly global used here (TypeScript's es2023 lib leaves it out). */
const wasm = (
  globalThis as unknown as {
    WebAssembly: { instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: unknown } }> };
  }
).WebAssembly;

function loadWasm(): Promise<void> {
  wasmReady ??= (async () => {
    const url = new URL('schema_engine_bg.wasm', import.meta.resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
    const bytes = await readFile(url);
    const { instance } = await wasm.instantiate(bytes, { './schema_engine_bg.js': bg });
    const exports = instance.exports as { __wbindgen_start(): void };
    (bg as unknown as { __wbg_set_wasm(e: unknown): void }).__wbg_set_wasm(exports);
    exports.__wbindgen_start();
  })();
  return wasmReady;
}

export const PRISMA_DIR = resolve(process.env.PRISMA_DIR ?? 'prisma');
export const MIGRATIONS_DIR = join(PRISMA_DIR, 'migrations');

export async function readSchema(): Promise<{ path: string; content: string }> {
  const path = join(PRISMA_DIR, 'schema.prisma');
  return { path, content: await readFile(path, 'utf8') };
}

/** The migrations folder as the engine expects it: `<timestamp>_<name>/migration.sql`, in order. */
export async function readMigrations(): Promise<MigrationList> {
  const dirs = (await readdir(MIGRATIONS_DIR, { withFileTypes: true }).catch(() => []))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const lockPath = join(MIGRATIONS_DIR, 'migration_lock.toml');
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: { path: 'migration_lock.toml', content: await readFile(lockPath, 'utf8').catch(() => null) },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      dirs.map(async (dir) => {
        const content = await readFile(join(MIGRATIONS_DIR, dir, 'migration.sql'), 'utf8')
          .then((value) => ({ tag: 'ok' as const, value }))
          .catch((e: Error) => ({ tag: 'error' as const, value: e.message }));
        return { path: dir, migrationFile: { path: 'migration.sql', content } };
      }),
    ),
  };
}

/** Runs `use` with a schema engine connected to `connectionString`, then frees it. */
export async function withSchemaEngine<T>(connectionString: string, use: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  await loadWasm();
  const schema = await readSchema();
  // The engine opens connections through this factory but never closes them: track and dispose
  // them here, or the pool outlives the migration (and blocks CREATE DATABASE … TEMPLATE).
  const factory = new PrismaPg({ connectionString });
  const opened: { dispose(): Promise<void> }[] = [];
  const tracking = Object.assign(Object.create(Object.getPrototypeOf(factory) as object) as PrismaPg, factory, {
    connect: async () => track(await factory.connect()),
    connectToShadowDb: async () => track(await factory.connectToShadowDb()),
  });
  const track = <A extends { dispose(): Promise<void> }>(a: A): A => (opened.push(a), a);
  const adapter = bindMigrationAwareSqlAdapterFactory(tracking);
  const logs: string[] = [];
  const engine = await (bg as unknown as { SchemaEngine: typeof SchemaEngine }).SchemaEngine.new(
    { datamodels: [[schema.path, schema.content]] },
    (log: string) => logs.push(log),
    adapter,
  );
  try {
    return await use(engine);
  } finally {
    engine.free();
    await Promise.all(opened.map((a) => a.dispose().catch(() => {})));
  }
}

export const NO_FILTERS = { externalTables: [], externalEnums: [] };
