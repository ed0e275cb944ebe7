import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../src/database/prisma.service.js';
import { adminQuery, databaseName } from './setup/test-database.js';
import { startTestApp, type TestApp } from './support/app.js';
import type { GqlErrorShape } from './support/gql.js';
import { RawWs } from './support/raw-ws.js';

const INTROSPECT = '{ __schema { queryType { name } } }';
const TYPO = '{ matchez { totalCount } }';
const TOKEN = 'a-metrics-token-of-enough-length';

async function wsFirstError(url: string, query: string): Promise<GqlErrorShape> {
  const ws = new RawWs(url);
  await ws.ready();
  ws.subscribe('q', query);
  await ws.until(() => ws.of('q').length > 0);
  ws.terminate();
  return (ws.of('q')[0].payload as GqlErrorShape[])[0];
}

describe('production defaults', () => {
  let prod: TestApp;
  let dev: TestApp;
  beforeAll(async () => {
    [prod, dev] = await Promise.all([startTestApp({ NODE_ENV: 'production', METRICS: 'true', METRICS_TOKEN: TOKEN }), startTestApp()]);
  });
  afterAll(() => Promise.all([prod.close(), dev.close()]));

  it('refuses introspection in production, on HTTP and graphql-ws', async () => {
    const http = (await prod.anon.raw(INTROSPECT)).body.errors![0];
    expect(http.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(http.message).toBe('GraphQL introspection has been disabled, but the requested query contained the field "__schema".');
    const ws = await wsFirstError(prod.url, INTROSPECT);
    expect(ws.message).toBe(http.message);
    expect(await dev.anon.request(INTROSPECT)).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });

  it('gives no "did you mean" suggestions in production, on HTTP and graphql-ws', async () => {
    const expected = 'Cannot query field "matchez" on type "Query".';
    expect((await prod.anon.raw(TYPO)).body.errors![0]).toMatchObject({ message: expected, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    expect((await wsFirstError(prod.url, TYPO)).message).toBe(expected);
    expect((await dev.anon.raw(TYPO)).body.errors![0].message).toBe(`${expected} Did you mean "matches" or "match"?`);
  });

  it('serves /metrics only to bearers of METRICS_TOKEN, and not at all unless enabled', async () => {
    expect((await fetch(`${prod.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${prod.url}/metrics`, { headers: { authorization: 'Bearer wrong-token-of-the-same-len' } })).status).toBe(401);
    const ok = await fetch(`${prod.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toMatch(/^dominoes_sql_statements_total \d+$/m);
    expect((await fetch(`${dev.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    expect(() => loadConfig({ METRICS: 'true' })).toThrow(ConfigError);
  });
});

describe('production switches are separate settings', () => {
  let app: TestApp;
  beforeAll(async () => (app = await startTestApp({ NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'true' })));
  afterAll(() => app.close());

  it('GRAPHQL_INTROSPECTION=true allows introspection in production, suggestions stay off', async () => {
    expect(await app.anon.request(INTROSPECT)).toEqual({ __schema: { queryType: { name: 'Query' } } });
    expect((await app.anon.raw(TYPO)).body.errors![0].message).not.toMatch(/Did you mean/);
  });
});

describe('readiness without the database', () => {
  it('answers 503 without the database error text', async () => {
    // The server needs its database to start (it takes the instance lock there), so the database
    // goes away under a running server: no new connections, and the open ones are ended.
    const app = await startTestApp();
    const name = databaseName(app.databaseUrl);
    const serverUrl = process.env.TEST_PG_SERVER_URL!;
    try {
      await adminQuery(serverUrl, `ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await adminQuery(serverUrl, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`);
      const res = await fetch(`${app.url}/health/ready`);
      expect(res.status).toBe(503);
      const text = await res.text();
      expect(text).toContain('database unreachable');
      expect(text).not.toMatch(/not currently accepting|does not exist|terminat|postgres|password|127\.0\.0\.1/i);
    } finally {
      await adminQuery(serverUrl, `ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      await app.close();
    }
  });
});

describe('readiness with a database that does not answer', () => {
  it('answers 503 within its own bound instead of waiting on the database', async () => {
    const app = await startTestApp();
    const prisma = app.server.app.get(PrismaService);
    const background = prisma.background.bind(prisma);
    // A database gone silent for the readiness statement: it never answers (the pool would wait
    // for its timeouts). The sweeps' statements still pass, so that the app can close.
    prisma.background = (sql: Prisma.Sql) => (sql.sql.includes('_prisma_migrations') ? new Promise<never>(() => {}) : background(sql));
    try {
      const res = await Promise.race([
        fetch(`${app.url}/health/ready`),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 10 s')), 10_000).unref()),
      ]);
      expect(res.status).toBe(503);
      expect(await res.text()).toContain('database unreachable');
    } finally {
      prisma.background = background;
      await app.close();
    }
  });
});

describe('docker-compose.yml', () => {
  it('publishes PostgreSQL and Redis on the loopback interface only', () => {
    const compose = readFileSync(new URL('../docker-compose.yml', import.meta.url), 'utf8');
    const published = [...compose.matchAll(/^\s+- '([^']*:(?:5432|6379))'$/gm)].map((m) => m[1]);
    expect(published).toEqual(['127.0.0.1:5432:5432', '127.0.0.1:6379:6379']);
  });
});
