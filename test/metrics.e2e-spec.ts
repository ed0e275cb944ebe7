import { jest } from '@jest/globals';
import { parsePrometheus, sum, type Sample } from '../bench/support/prometheus.js';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../src/database/prisma.service.js';
import { startTestApp, type TestApp } from './support/app.js';
import { M_CREATE, M_JOIN, M_PLAY, type MatchT } from './support/fragments.js';
import { eventually } from './support/eventually.js';
import { GqlError } from './support/gql.js';
import { Subscriber } from './support/ws.js';

const TOKEN = 'metrics-token-for-the-tests';
const LEGAL = 'query($id: ID!) { match(id: $id) { version turn legalMoves { tile { high low } end } } }';

interface Legal {
  match: { version: number; turn: number; legalMoves: { tile: { high: number; low: number }; end: string | null }[] };
}

describe('GET /metrics (Prometheus text)', () => {
  let app: TestApp;
  beforeAll(async () => (app = await startTestApp({ METRICS: 'true', METRICS_TOKEN: TOKEN })));
  afterAll(() => app.close());

  async function scrape(): Promise<Sample[]> {
    const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheus(await res.text());
  }

  it('refuses a request without the token, or with another one', async () => {
    expect((await fetch(`${app.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN.replace('m', 'n')}` } })).status).toBe(401);
  });

  it('counts a playTile in its latency histogram, and a refused command by its error code', async () => {
    const [a, b] = [await app.player(), await app.player()];
    const { id } = (await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } })).createMatch;
    await b.request(M_JOIN, { id });
    const { match } = await a.request<Legal>(LEGAL, { id });
    const mover = match.turn === 0 ? a : b;
    const view = (await mover.request<Legal>(LEGAL, { id })).match;

    const before = await scrape();
    const move = view.legalMoves[0];
    await mover.request(M_PLAY, { input: { matchId: id, tile: move.tile, end: move.end, expectedVersion: view.version } });
    const afterPlay = await scrape();
    const count = (s: Sample[]) => sum(s, 'dominoes_command_duration_seconds_count', { command: 'playTile', outcome: 'ok' });
    expect(count(afterPlay)).toBe(count(before) + 1);

    // A command from the seat not to move is refused (a typed code, nothing changed).
    const again = (await mover.request<Legal>(LEGAL, { id })).match;
    const refused = await (again.turn === 0 ? b : a)
      .request(M_PLAY, { input: { matchId: id, tile: move.tile, end: move.end, expectedVersion: again.version } })
      .then(() => null)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GqlError);
    const code = (refused as GqlError).errors[0].extensions?.code as string;
    const afterRefusal = await scrape();
    expect(sum(afterRefusal, 'dominoes_graphql_errors_total', { code })).toBe(sum(afterPlay, 'dominoes_graphql_errors_total', { code }) + 1);
    expect(sum(afterRefusal, 'dominoes_command_duration_seconds_count', { command: 'playTile', outcome: 'error' })).toBeGreaterThan(0);
  });

  it('a flood of readiness probes costs the database one statement, not one per probe', async () => {
    await new Promise((r) => setTimeout(r, 1_100)); // past any earlier probe's reuse
    // The check is background work (not in dominoes_sql_statements_total): its statements are counted here.
    const statements = jest.spyOn(app.server.app.get(PrismaService), 'background');
    try {
      const started = Date.now();
      const probes = await Promise.all(Array.from({ length: 50 }, () => fetch(`${app.url}/health/ready`)));
      const seconds = Math.ceil((Date.now() - started) / 1000);
      expect(probes.map((r) => r.status)).toEqual(Array(50).fill(200));
      const checks = statements.mock.calls.filter(([sql]) => sql.sql.includes('_prisma_migrations')).length;
      // One check a second at most, however many probes (one per probe would be 50).
      expect(checks).toBeGreaterThanOrEqual(1);
      expect(checks).toBeLessThanOrEqual(seconds + 1);
    } finally {
      statements.mockRestore();
    }
  });

  it('keeps idle pooled connections for the next requests instead of opening new ones', async () => {
    const prisma = app.server.app.get(PrismaService);
    // Several statements at once: the pool opens (or reuses) a connection for each.
    await Promise.all(Array.from({ length: 4 }, () => prisma.poolQuery(Prisma.sql`SELECT pg_sleep(0.05)`)));
    const open = sum(await scrape(), 'dominoes_db_pool_connections');
    expect(open).toBeGreaterThanOrEqual(4);
    // Longer than pg-pool's default idle timeout (10 s), which closed all those idle meanwhile
    // (background sweeps may open more, never fewer).
    await new Promise((r) => setTimeout(r, 11_000));
    expect(sum(await scrape(), 'dominoes_db_pool_connections')).toBeGreaterThanOrEqual(open);
  });

  it('shows the pool, the event loop and the open subscriptions', async () => {
    const s = await scrape();
    expect(sum(s, 'dominoes_db_pool_max')).toBe(10);
    expect(s.some((x) => x.name === 'nodejs_eventloop_lag_p99_seconds')).toBe(true);
    expect(s.some((x) => x.name === 'dominoes_db_pool_wait_seconds_count')).toBe(true);
  });

  it('counts open sockets and subscriptions as they open and close, and the SQL statements requests send', async () => {
    const a = await app.player();
    const before = await scrape();
    const { id } = (await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } })).createMatch;
    const afterCreate = await scrape();
    expect(sum(afterCreate, 'dominoes_sql_statements_total')).toBeGreaterThan(sum(before, 'dominoes_sql_statements_total'));

    const open = (s: Sample[]) => [sum(s, 'dominoes_open_sockets'), sum(s, 'dominoes_open_subscriptions')];
    const [sockets, subscriptions] = open(afterCreate);
    const watcher = new Subscriber(app.url, a.token).subscribe('subscription($id: ID!) { matchEvents(matchId: $id) { seq } }', { id }, (d) => d);
    await watcher.ready();
    // The server counts the socket and its subscription once the subscription has started.
    const reaches = async (expected: number[]) =>
      eventually(
        async () => open(await scrape()),
        (v) => v.join() === expected.join(),
        'the gauges',
        20_000,
      );
    expect(await reaches([sockets + 1, subscriptions + 1])).toEqual([sockets + 1, subscriptions + 1]);
    await watcher.close();
    expect(await reaches([sockets, subscriptions])).toEqual([sockets, subscriptions]);
  });

  it('has no bench-only floor mutation unless BENCH_FLOOR=true', async () => {
    const me = await app.player();
    const { body } = await me.raw('mutation { benchFloor(matchId: "00000000-0000-4000-8000-000000000000", seq: 1) { seq } }');
    expect(body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});
