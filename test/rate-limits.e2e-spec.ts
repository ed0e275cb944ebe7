import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';
import pg from 'pg';
import { startServer, type RunningServer } from '../src/bootstrap.js';
import { loadConfig } from '../src/config/config.js';
import { RateLimits } from '../src/rate-limits/rate-limits.service.js';
import { startTestApp, UNLIMITED, type TestApp } from './support/app.js';
import { GqlClient } from './support/gql.js';
import { RawWs } from './support/raw-ws.js';
import { Subscriber } from './support/ws.js';
import { TcpProxy } from './support/tcp-proxy.js';

const M_REGISTER = `mutation($name: String!) { registerPlayer(name: $name) { token player { id } } }`;
const M_CREATE = `mutation($input: CreateMatchInput!) { createMatch(input: $input) { id status } }`;
const M_JOIN = `mutation($id: ID!) { joinMatch(matchId: $id) { id status } }`;
const M_LEAVE = `mutation($id: ID!) { leaveMatch(matchId: $id) { id status } }`;
const S_TURNS = `subscription { myTurns { id } }`;

async function playerCount(app: TestApp): Promise<number> {
  const db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  try {
    return (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Player"`)).rows[0].n;
  } finally {
    await db.end();
  }
}

function expectRateLimited(body: { errors?: { extensions?: { code?: string; retryAfter?: unknown } }[] }, maxSeconds: number): void {
  const e = body.errors?.[0];
  expect(e?.extensions?.code).toBe('RATE_LIMITED');
  expect(e?.extensions?.retryAfter).toEqual(expect.any(Number));
  expect(e!.extensions!.retryAfter as number).toBeGreaterThanOrEqual(1);
  expect(e!.extensions!.retryAfter as number).toBeLessThanOrEqual(maxSeconds);
}

describe('registrations per address (in memory)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_REGISTER: '3/60' });
  });
  afterAll(() => app.close());

  it('refuses a fourth registration from one address with RATE_LIMITED and Retry-After, and stores no player', async () => {
    for (let i = 0; i < 3; i++) await app.anon.request(M_REGISTER, { name: `r${i}` });
    const before = await playerCount(app);
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: M_REGISTER, variables: { name: 'one too many' } }),
    });
    // A resolver's refusal is a GraphQL error (status 200, as every execution error here) with Retry-After.
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expectRateLimited((await res.json()) as { errors?: [] }, 60);
    expect(await playerCount(app)).toBe(before);
  });
});

describe('rate limits per player and per address (in memory)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      RATE_LIMIT_CREATE_MATCH: '2/60',
      RATE_LIMIT_MOVES: '3/60',
      RATE_LIMIT_WEBHOOKS: '2/60',
      RATE_LIMIT_HTTP_PLAYER: '40/60',
      RATE_LIMIT_WS_CONNECT: '3/60',
      RATE_LIMIT_WS_SUBSCRIBE: '2/60',
    });
  });
  afterAll(() => app.close());

  it('counts createMatch and joinMatch per player, and match commands per player apart from them', async () => {
    const ann = await app.player('ann');
    const bob = await app.player('bob');
    const { createMatch: m1 } = await ann.request<{ createMatch: { id: string } }>(M_CREATE, { input: { seats: 3 } });
    await ann.request(M_CREATE, { input: { seats: 3 } });
    const refused = await ann.raw(M_CREATE, { input: { seats: 3 } });
    expectRateLimited(refused.body, 60);
    // Bob's budget is his own; leaveMatch spends from the command budget (3), not from createMatch's.
    await bob.request(M_JOIN, { id: m1.id });
    await bob.request(M_LEAVE, { id: m1.id });
    await bob.request(M_JOIN, { id: m1.id });
    expect(await bob.errorCode(M_JOIN, { id: m1.id })).toBe('RATE_LIMITED');
    await bob.request(M_LEAVE, { id: m1.id });
    expect(await bob.errorCode(M_LEAVE, { id: m1.id })).toBe('FORBIDDEN'); // spent, then refused on its merits
    expect(await bob.errorCode(M_LEAVE, { id: m1.id })).toBe('RATE_LIMITED');
  });

  it('counts webhook changes and redeliveries per player: a redelivery loop against a hanging receiver runs dry', async () => {
    const cy = await app.player('cy');
    const redeliver = 'mutation($id: ID!) { redeliverWebhook(deliveryId: $id) { id } }';
    const id = { id: '00000000-0000-4000-8000-000000000000' };
    expect(await cy.errorCode(redeliver, id)).toBe('NOT_FOUND'); // spent, then refused on its merits
    expect(await cy.errorCode('mutation { deleteWebhook(id: "00000000-0000-4000-8000-000000000000") }')).toBe('NOT_FOUND');
    const refused = await cy.raw(redeliver, id);
    expectRateLimited(refused.body, 60);
    // Another player's budget is their own.
    expect(await (await app.player('dee')).errorCode(redeliver, id)).toBe('NOT_FOUND');
  });

  it('limits requests per token over HTTP, leaving anonymous reads from other players untouched', async () => {
    const cat = await app.player('cat');
    let refused: Awaited<ReturnType<GqlClient['raw']>> | null = null;
    for (let i = 0; i < 60 && !refused; i++) {
      const res = await cat.raw('{ me { id } }');
      if (res.status === 429) refused = res;
    }
    expect(refused).not.toBeNull();
    expectRateLimited(refused!.body, 60);
    expect((await app.anon.raw('{ __typename }')).status).toBe(200);
  });

  it('closes a fourth WebSocket connection from one address with 4429, and refuses a third subscription with RATE_LIMITED', async () => {
    const dan = await app.player('dan');
    const sockets = [0, 1, 2].map(() => new Subscriber(app.url, dan.token));
    // Every WebSocket operation spends from the player's budget: two pass, the third is refused.
    sockets[0].subscribe(S_TURNS, {}, (d) => d);
    sockets[1].subscribe(S_TURNS, {}, (d) => d);
    sockets[2].subscribe(S_TURNS, {}, (d) => d);
    const refused = async () => {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && !sockets.some((s) => s.errors.length > 0)) await new Promise((r) => setTimeout(r, 20));
      return sockets.flatMap((s) => s.errors);
    };
    const errors = await refused();
    expect(JSON.stringify(errors)).toContain('RATE_LIMITED');
    expect(JSON.stringify(errors)).toContain('retryAfter');
    const fourth = new Subscriber(app.url, dan.token);
    expect(await fourth.closed()).toBe(4429);
    await Promise.all([...sockets, fourth].map((s) => s.close()));
  });
});

describe('operations over a WebSocket', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_HTTP_PLAYER: '12/60', RATE_LIMIT_WS_SUBSCRIBE: '2/60' });
  });
  afterAll(() => app.close());

  it("spend a player's queries and mutations from the per-token budget, as over HTTP, and subscriptions from the subscribe budget too", async () => {
    const eve = await app.player('eve');
    const ws = new RawWs(app.url, { token: eve.token });
    const outcome = (id: string) => {
      const m = ws.of(id).find((x) => x.type === 'next' || x.type === 'error');
      if (!m) return undefined;
      return m.type === 'next' ? 'answered' : JSON.stringify(m.payload).includes('RATE_LIMITED') ? 'RATE_LIMITED' : JSON.stringify(m.payload);
    };
    try {
      await ws.ready();
      // Five queries: more than the 2 subscriptions the subscribe budget allows, all answered.
      for (let i = 0; i < 5; i++) ws.subscribe(`q${i}`, '{ me { id } }');
      await ws.until(() => [0, 1, 2, 3, 4].every((i) => outcome(`q${i}`) !== undefined));
      expect([0, 1, 2, 3, 4].map((i) => outcome(`q${i}`))).toEqual(Array(5).fill('answered'));
      // Subscriptions spend the subscribe budget too: two start, the third is refused.
      for (let i = 0; i < 3; i++) ws.subscribe(`s${i}`, 'subscription { myTurns { id } }');
      await ws.until(() => outcome('s2') !== undefined);
      expect(outcome('s2')).toBe('RATE_LIMITED');
      expect(
        ws
          .of('s0')
          .concat(ws.of('s1'))
          .filter((m) => m.type === 'error'),
      ).toEqual([]);
      // 8 of the token's 12 are spent (5 queries, 3 subscribes): the fifth query from here is refused.
      for (let i = 5; i < 10; i++) ws.subscribe(`q${i}`, '{ me { id } }');
      await ws.until(() => outcome('q9') !== undefined);
      expect([5, 6, 7, 8, 9].map((i) => outcome(`q${i}`))).toEqual(['answered', 'answered', 'answered', 'answered', 'RATE_LIMITED']);
    } finally {
      ws.terminate();
    }
  });
});

describe('operations over a WebSocket with the per-token budget off', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_HTTP_PLAYER: 'off', RATE_LIMIT_WS_SUBSCRIBE: '3/60' });
  });
  afterAll(() => app.close());

  it("still spend a budget before they are parsed: the player's subscribe budget", async () => {
    const fay = await app.player('fay');
    const ws = new RawWs(app.url, { token: fay.token });
    try {
      await ws.ready();
      for (let i = 0; i < 4; i++) ws.subscribe(`q${i}`, '{ me { id } }');
      await ws.until(() => ws.of('q3').some((m) => m.type === 'next' || m.type === 'error'));
      const types = [0, 1, 2, 3].map((i) => ws.of(`q${i}`).find((m) => m.type === 'next' || m.type === 'error')?.type);
      expect(types).toEqual(['next', 'next', 'next', 'error']);
      expect(JSON.stringify(ws.of('q3'))).toContain('RATE_LIMITED');
    } finally {
      ws.terminate();
    }
  });
});

describe('the HTTP budget per address', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_HTTP_ADDRESS: '5/60' });
  });
  afterAll(() => app.close());

  it('answers HTTP 429 before parsing, on GraphQL and REST alike, and never limits the health checks', async () => {
    for (let i = 0; i < 5; i++) expect((await app.anon.raw('{ __typename }')).status).toBe(200);
    const gql = await app.anon.raw('{ __typename }');
    expect(gql.status).toBe(429);
    expectRateLimited(gql.body, 60);
    // As a GraphQL answer, in the media type the client prefers (GraphQL over HTTP).
    const preferred = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect({ status: preferred.status, type: preferred.headers.get('content-type') }).toEqual({
      status: 429,
      type: 'application/graphql-response+json; charset=utf-8',
    });
    expectRateLimited((await preferred.json()) as typeof gql.body, 60);
    const rest = await fetch(`${app.url}/matches/00000000-0000-4000-8000-000000000000/record`);
    expect(rest.status).toBe(429);
    expect(rest.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await rest.json()).toMatchObject({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
    expect((await fetch(`${app.url}/health`)).status).toBe(200);
  });
});

describe('the quota of WAITING matches', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ MAX_WAITING_MATCHES: '2' });
  });
  afterAll(() => app.close());

  it('refuses a third waiting match, by creating or by joining, and frees a place when one is left', async () => {
    const ann = await app.player('ann');
    const bob = await app.player('bob');
    const { createMatch: m1 } = await ann.request<{ createMatch: { id: string } }>(M_CREATE, { input: { seats: 3 } });
    await ann.request(M_CREATE, { input: { seats: 3 } });
    const refused = await ann.raw(M_CREATE, { input: { seats: 3 } });
    expect(refused.body.errors?.[0].extensions).toMatchObject({ code: 'TOO_MANY_WAITING_MATCHES', limit: 2 });
    // A match that starts at once (every other seat a bot) is never waiting: allowed.
    expect((await ann.request<{ createMatch: { status: string } }>(M_CREATE, { input: { seats: 2, bots: 1 } })).createMatch.status).toBe(
      'IN_PROGRESS',
    );
    // Joining a match that then still waits counts too.
    const { createMatch: b1 } = await bob.request<{ createMatch: { id: string } }>(M_CREATE, { input: { seats: 3 } });
    expect(await ann.errorCode(M_JOIN, { id: b1.id })).toBe('TOO_MANY_WAITING_MATCHES');
    await ann.request(M_LEAVE, { id: m1.id });
    expect((await ann.request<{ joinMatch: { status: string } }>(M_JOIN, { id: b1.id })).joinMatch.status).toBe('WAITING');
  });
});

/** Redis is reachable when something answers PING on REDIS_URL (default: the local one). */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisReachable = await new Promise<boolean>((resolve) => {
  const u = new URL(REDIS_URL);
  const socket = createConnection({ host: u.hostname, port: Number(u.port || 6379) });
  socket.setTimeout(1_000, () => (socket.destroy(), resolve(false)));
  socket.once('error', () => resolve(false));
  socket.once('connect', () => socket.write('PING\r\n'));
  socket.once('data', (d) => (socket.end(), resolve(d.toString().startsWith('+PONG'))));
});
const describeWithRedis = redisReachable ? describe : describe.skip;

describeWithRedis(
  redisReachable
    ? 'rate limits shared through Redis by two instances'
    : `rate limits shared through Redis (skipped: no Redis answers at ${REDIS_URL})`,
  () => {
    let a: TestApp;
    let b: RunningServer;
    // 2 s for a Redis command (300 ms by default): a loaded machine's slow answer must not switch the count to memory.
    const limits = {
      REDIS_URL,
      REDIS_COMMAND_TIMEOUT_MS: '2000',
      RATE_LIMIT_KEY_PREFIX: `test:${randomBytes(6).toString('hex')}`,
      RATE_LIMIT_REGISTER: '3/60',
      PUBSUB: 'postgres',
    };
    beforeAll(async () => {
      a = await startTestApp(limits);
      b = await startServer(
        loadConfig({
          ...UNLIMITED,
          ...limits,
          LOG_LEVEL: 'silent',
          PORT: '0',
          HOST: '127.0.0.1',
          DATABASE_URL: a.databaseUrl,
          MIGRATE_ON_START: 'false',
        }),
        { logger: false },
      );
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it('spends one budget: two registrations on A and one on B use it up for both', async () => {
      const onB = new GqlClient(b.url);
      await a.anon.request(M_REGISTER, { name: 'a1' });
      await a.anon.request(M_REGISTER, { name: 'a2' });
      await onB.request(M_REGISTER, { name: 'b1' });
      const refusedOnB = await onB.raw(M_REGISTER, { name: 'b2' });
      expectRateLimited(refusedOnB.body, 60);
      expect(await a.anon.errorCode(M_REGISTER, { name: 'a3' })).toBe('RATE_LIMITED');
    });
  },
);

/**
 * A Redis that stops answering: a proxy between the server and Redis that, once silent, keeps
 * every connection open and drops what either side sends (a failover, a lost route: no error).
 */
describeWithRedis(
  redisReachable ? 'a Redis that stops answering' : `a Redis that stops answering (skipped: no Redis answers at ${REDIS_URL})`,
  () => {
    let app: TestApp;
    let proxy: TcpProxy;
    const prefix = `test:${randomBytes(6).toString('hex')}`;
    beforeAll(async () => {
      const redis = new URL(REDIS_URL);
      proxy = await TcpProxy.start({ host: redis.hostname, port: Number(redis.port || 6379) });
      const url = `redis://127.0.0.1:${proxy.port}`;
      // 2 s for a Redis command: slow answers are not silence, and a silent Redis still gets each request answered within 5 s.
      app = await startTestApp({ REDIS_URL: url, REDIS_COMMAND_TIMEOUT_MS: '2000', RATE_LIMIT_KEY_PREFIX: prefix, RATE_LIMIT_REGISTER: '3/60' });
    });
    afterAll(async () => {
      await app?.close();
      await proxy?.close();
    });

    /** The request's answer, or a failure if none came within 5 s (the old code waited for Redis for good). */
    const answered = <T>(p: Promise<T>): Promise<T> =>
      Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 5 s')), 5_000).unref())]);
    /** The registration's error code, or undefined when it passed. */
    const register = async (name: string) => (await answered(app.anon.raw(M_REGISTER, { name }))).body.errors?.[0]?.extensions?.code;
    const until = async (cond: () => boolean) => {
      for (let i = 0; i < 100 && !cond(); i++) await new Promise((r) => setTimeout(r, 100));
      expect(cond()).toBe(true);
    };

    it('answers every request, counting in memory meanwhile, and counts in Redis again once it answers', async () => {
      const limits = app.server.app.get(RateLimits);
      expect(limits.countingInRedis).toBe(true);
      expect(await register('r1')).toBeUndefined(); // counted in Redis: 1 of 3
      proxy.silent = true;
      // The memory counters start from nothing: three more pass, the fourth is refused.
      for (const name of ['r2', 'r3', 'r4']) expect(await register(name)).toBeUndefined();
      expect(await register('r5')).toBe('RATE_LIMITED');
      expect(limits.countingInRedis).toBe(false);
      proxy.silent = false;
      await until(() => limits.countingInRedis);
      // Back on Redis's count (1 of 3), which the memory counters' refusal does not reach.
      expect(await register('r6')).toBeUndefined();
      expect(await register('r7')).toBeUndefined();
      expect(await register('r8')).toBe('RATE_LIMITED');
    });
  },
);
