/**
 * What every service benchmark needs: a PostgreSQL to run against (DATABASE_URL's server when
 * set, else a throwaway embedded one), a fresh database on it, and the compiled server started as
 * a child process, so client and server do not share an event loop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbedded } from '../../src/database/database-url.js';
import { applyMigrations } from '../../src/database/migrate.js';
import { parsePrometheus, sum, type Sample } from './prometheus.js';

export interface BenchDatabase {
  url: string;
  stop(): Promise<void>;
}

function withDb(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

async function admin(url: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** A migrated, empty database that is dropped again by stop(). */
export async function benchDatabase(): Promise<BenchDatabase> {
  let serverUrl = process.env.DATABASE_URL;
  let stopServer = async () => {};
  if (serverUrl) {
    const name = decodeURIComponent(new URL(serverUrl).pathname.slice(1));
    if (!/bench|test/i.test(name)) throw new Error(`refusing to benchmark against "${name}": its name must contain "bench" or "test"`);
  } else {
    const dir = await mkdtemp(join(tmpdir(), 'dominoes-bench-pg-'));
    await chmod(dir, 0o755); // PostgreSQL runs as its own unprivileged user
    const db = await startEmbedded(join(dir, 'data'), 0, 'bench');
    serverUrl = db.url;
    stopServer = async () => {
      await db.stop();
      await rm(dir, { recursive: true, force: true });
    };
  }
  const name = `dominoes_bench_${randomBytes(4).toString('hex')}`;
  await admin(serverUrl, `CREATE DATABASE "${name}"`);
  const url = withDb(serverUrl, name);
  await applyMigrations(url);
  return {
    url,
    stop: async () => {
      await admin(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
      await stopServer();
    },
  };
}

/**
 * Benchmark clients drive thousands of requests/s from one address: they are measured without
 * the production rate limits, which would refuse most of them (pass limits in env to measure them).
 */
export const UNLIMITED_ENV: Record<string, string> = {
  RATE_LIMIT_HTTP_ADDRESS: 'off',
  RATE_LIMIT_HTTP_PLAYER: 'off',
  RATE_LIMIT_WS_CONNECT: 'off',
  RATE_LIMIT_WS_SUBSCRIBE: 'off',
  RATE_LIMIT_REGISTER: 'off',
  RATE_LIMIT_CREATE_MATCH: 'off',
  RATE_LIMIT_MOVES: 'off',
  RATE_LIMIT_WEBHOOKS: 'off',
  MAX_WAITING_MATCHES: '10000',
};

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `node dist/src/main.js` on a free port; resolves once it is listening. */
/** GET /metrics answers bearers of this token only; a fresh one per run. */
const METRICS_TOKEN = randomBytes(24).toString('hex');

export function startServerProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    // e.g. BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the server under load
    const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const child = spawn(process.execPath, [...nodeArgs, 'dist/src/main.js'], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PORT: '0',
        HOST: '127.0.0.1',
        // Measured as deployed: graphql-js skips its development-only checks in production.
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        METRICS: 'true',
        METRICS_TOKEN,
        MIGRATE_ON_START: 'false',
        ...UNLIMITED_ENV,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/[\d.]+:\d+)\/graphql/.exec(out);
      if (m) {
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
        resolve({
          url: m[1],
          child,
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening`)));
  });
}

/**
 * A plain keep-alive HTTP client: fetch (undici) costs several times more CPU per request, and
 * the client shares this 2-core machine with the server and PostgreSQL being measured.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export function gql<T>(url: string, query: string, variables: Record<string, unknown> = {}, token?: string): Promise<T> {
  const body = JSON.stringify({ query, variables });
  const target = new URL(`${url}/graphql`);
  return new Promise<T>((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            const parsed = JSON.parse(Buffer.concat(chunks).toString()) as {
              data?: T;
              errors?: { message: string; extensions?: { code?: string } }[];
            };
            if (parsed.errors?.length) reject(new Error(parsed.errors.map((e) => `${e.extensions?.code}: ${e.message}`).join('; ')));
            else resolve(parsed.data as T);
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The server's GET /metrics, parsed (see prometheus.ts). */
export async function scrape(url: string): Promise<Sample[]> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (!res.ok) throw new Error(`GET /metrics: ${res.status}`);
  return parsePrometheus(await res.text());
}

/** The server-side figures the benchmarks compare, read from the Prometheus text. */
export async function metrics(url: string): Promise<{ sqlStatements: number; openSubscriptions: number; rssBytes: number; heapUsedBytes: number }> {
  const s = await scrape(url);
  return {
    sqlStatements: sum(s, 'dominoes_sql_statements_total'),
    openSubscriptions: sum(s, 'dominoes_open_subscriptions'),
    rssBytes: sum(s, 'process_resident_memory_bytes'),
    heapUsedBytes: sum(s, 'nodejs_heap_size_used_bytes'),
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);

/**
 * Bounds a benchmark's run: if anything hangs past `ms`, the server is killed, the database
 * stopped and the process exits with 1. Unref'd: it never keeps a finished run alive.
 */
export function watchdog(name: string, ms: number, server: ServerProcess, db: BenchDatabase): NodeJS.Timeout {
  const timer = setTimeout(() => {
    console.error(`${name}: time limit reached, stopping`);
    server.child.kill('SIGKILL');
    void db.stop().finally(() => process.exit(1));
  }, ms);
  timer.unref();
  return timer;
}
