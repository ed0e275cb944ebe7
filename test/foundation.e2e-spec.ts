import { spawnSync } from 'node:child_process';
import { startTestApp, type TestApp } from './support/app.js';

describe('service foundation', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers GraphQL over HTTP', async () => {
    expect(await app.anon.request('{ __typename }')).toEqual({ __typename: 'Query' });
  });

  it('reports alive and ready (database reachable, migrations applied)', async () => {
    const alive = await fetch(`${app.url}/health`);
    expect(alive.status).toBe(200);
    const ready = await fetch(`${app.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
  });

  it('registers a player whose token authenticates it; the token is stored only as a hash', async () => {
    const ann = await app.player('Ann');
    expect(await ann.request('{ me { id name } }')).toEqual({ me: { id: ann.id, name: 'Ann' } });
    expect(await app.anon.request('{ me { id } }')).toEqual({ me: null });
    expect(ann.token!.length).toBeGreaterThanOrEqual(22); // ≥ 128 bits in base64url
    const rows = await app.server.app.get((await import('../src/database/prisma.service.js')).PrismaService).player.findMany();
    expect(JSON.stringify(rows)).not.toContain(ann.token);
  });

  it('rejects a bad token with UNAUTHENTICATED, and a blank name with BAD_USER_INPUT', async () => {
    const { GqlClient } = await import('./support/gql.js');
    expect(await new GqlClient(app.url, 'nope').errorCode('{ me { id } }')).toBe('UNAUTHENTICATED');
    expect(await app.anon.errorCode('mutation { registerPlayer(name: "  ") { token } }')).toBe('BAD_USER_INPUT');
  });

  it('masks unknown errors and keeps request errors typed', async () => {
    expect(await app.anon.errorCode('{ nope }')).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe('boot-time failures', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ PUBSUB: 'postgres' });
  });
  afterAll(async () => {
    await app.close();
  });
  // The compiled server (npm test builds it first), started as an operator would.
  const boot = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['dist/src/main.js'], { env: { ...process.env, ...env, LOG_LEVEL: 'silent' }, encoding: 'utf8', timeout: 60_000 });

  it.each([
    [{ DATABASE_URL: 'mysql://root@localhost/x' }, /DATABASE_URL/],
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000', DATABASE_URL: 'nope' }, /PORT.*DATABASE_URL|DATABASE_URL.*PORT/],
    [{ DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/test' }, /cannot reach the database/],
  ])('%j stops the server with a one-line reason', (env, reason) => {
    const res = boot(env);
    expect(res.status).toBe(1);
    const lines = res.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^cannot start: /);
    expect(lines[0]).toMatch(reason);
  });

  it('names HOST, not the database, when the address to listen on does not resolve', () => {
    // A database that answers: the failure is the listening address alone.
    const res = boot({ DATABASE_URL: app.databaseUrl, MIGRATE_ON_START: 'false', PUBSUB: 'postgres', HOST: 'no.such.host.invalid' });
    expect(res.status).toBe(1);
    const lines = res.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^cannot start: cannot listen on no\.such\.host\.invalid:\d+: .*\(check HOST\)$/);
  });
});
