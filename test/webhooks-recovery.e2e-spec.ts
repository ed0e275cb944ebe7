import pg from 'pg';
import { startServer, type RunningServer } from '../src/bootstrap.js';
import { loadConfig } from '../src/config/config.js';
import { createTestDatabase, dropTestDatabase } from './setup/test-database.js';
import { startTestApp, UNLIMITED, type TestApp } from './support/app.js';
import { viewOf } from './support/driver.js';
import { M_CREATE, M_JOIN, type MatchT } from './support/fragments.js';
import { GqlClient } from './support/gql.js';
import { startServerChild, type ListeningServer } from './support/server-process.js';
import { verified, WebhookReceiver } from './support/webhook-receiver.js';
import { eventually } from './support/eventually.js';
import { createWebhook } from './support/webhooks.js';

async function register(url: string, name: string): Promise<GqlClient> {
  const res = await new GqlClient(url).request<{ registerPlayer: { token: string; player: { id: string; name: string } } }>(
    'mutation($name: String!) { registerPlayer(name: $name) { token player { id name } } }',
    { name },
  );
  return new GqlClient(url, res.registerPlayer.token, res.registerPlayer.player);
}

/** Every message in the outbox: its webhook-id and status. */
async function outbox(databaseUrl: string): Promise<{ msgId: string; status: string }[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ msgId: string; status: string }>('SELECT "msgId", "status" FROM "WebhookMessage" ORDER BY "msgId"')).rows;
  } finally {
    await client.end();
  }
}

describe('a SIGKILL right after a commit', () => {
  const serverUrl = process.env.TEST_PG_SERVER_URL!;
  let databaseUrl: string;
  let server: ListeningServer | null = null;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase(serverUrl);
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await server?.kill('SIGKILL');
    await receiver.close();
    await dropTestDatabase(serverUrl, databaseUrl);
  });

  it('still delivers every message of that commit after the restart', async () => {
    // Until the crash the receiver never answers: nothing can have been delivered before it.
    let crashed = false;
    receiver.answer = () => (crashed ? { status: 200 } : 'hang');
    const env = {
      ...UNLIMITED,
      DATABASE_URL: databaseUrl,
      MIGRATE_ON_START: 'false',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_TIMEOUT_MS: '1000',
      SWEEP_INTERVAL_MS: '50',
      SWEEP_LEASE_MS: '1000',
    };
    server = await startServerChild(env);
    const [a, b] = [await register(server.url, 'a'), await register(server.url, 'b')];
    const wa = await createWebhook(a, `${receiver.url}/a`);
    const wb = await createWebhook(b, `${receiver.url}/b`);
    const m = (await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } })).createMatch;
    await b.request(M_JOIN, { id: m.id }); // the commit: MATCH_STARTED to both, TURN to the first mover
    await server.kill('SIGKILL');
    server = null;
    crashed = true;

    const written = await outbox(databaseUrl);
    expect(written).toHaveLength(3);
    expect(written.every((w) => w.status === 'PENDING')).toBe(true);

    server = await startServerChild(env);
    await eventually(
      () => outbox(databaseUrl),
      (rows) => rows.every((r) => r.status === 'DELIVERED'),
      'the outbox delivered after the restart',
    );
    const delivered = receiver.received.filter((r) => r.answered === 200);
    expect(new Set(delivered.map((r) => r.id))).toEqual(new Set(written.map((w) => w.msgId)));
    for (const r of delivered) verified(r.path === '/a' ? wa.secret : wb.secret, r);
  });
});

describe('two instances (PUBSUB=postgres) sweeping one outbox', () => {
  let a: TestApp;
  let b: RunningServer;
  let receiver: WebhookReceiver;
  const env = { PUBSUB: 'postgres', WEBHOOK_ALLOW_PRIVATE: 'true', SWEEP_INTERVAL_MS: '50', SWEEP_BATCH_SIZE: '3' };
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    a = await startTestApp(env);
    b = await startServer(
      loadConfig({
        ...UNLIMITED,
        ...env,
        LOG_LEVEL: 'silent',
        NODE_ENV: 'test',
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
    await receiver.close();
  });

  it('deliver each message exactly once', async () => {
    const secrets = new Map<string, string>();
    const pairs: [GqlClient, GqlClient][] = [];
    for (let i = 0; i < 6; i++) {
      const pair: [GqlClient, GqlClient] = [await register(a.url, `x${i}`), await register(b.url, `y${i}`)];
      for (const p of pair) secrets.set(`/${p.id}`, (await createWebhook(p, `${receiver.url}/${p.id}`)).secret);
      pairs.push(pair);
    }
    // Six matches played a few moves each, the commands spread over both instances.
    await Promise.all(
      pairs.map(async ([x, y]) => {
        const m = (await x.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } })).createMatch;
        // Both instances commit, and each reads its cache: a read waits until it shows the last
        // commit's version, which the other instance learns from its signal.
        let version = (await y.request<{ joinMatch: MatchT }>(M_JOIN, { id: m.id })).joinMatch.version;
        const current = (c: GqlClient) =>
          eventually(
            () => viewOf(c, m.id),
            (v) => v.version >= version,
            `${c.id} reads version ${version}`,
          );
        for (let k = 0; k < 6; k++) {
          const view = await current(x);
          if (view.status !== 'IN_PROGRESS') break;
          const mover = view.turn === view.mySeat ? x : y;
          const me = await current(mover);
          const input = { matchId: m.id, expectedVersion: me.version };
          if (me.legalMoves.length > 0) {
            const res = await mover.request<{ playTile: { version: number } }>('mutation($i: PlayTileInput!) { playTile(input: $i) { version } }', {
              i: { ...input, tile: me.legalMoves[0].tile, end: me.legalMoves[0].end },
            });
            version = res.playTile.version;
          } else {
            const res = await mover.request<{ drawTile: { version: number } }>('mutation($i: TurnInput!) { drawTile(input: $i) { version } }', {
              i: input,
            });
            version = res.drawTile.version;
          }
        }
      }),
    );
    const rows = await eventually(
      () => outbox(a.databaseUrl),
      (r) => r.length > 0 && r.every((x) => x.status === 'DELIVERED'),
      'every message delivered',
    );
    expect(rows.length).toBeGreaterThan(20);
    const ids = receiver.received.map((r) => r.id).sort();
    expect(ids).toEqual(rows.map((r) => r.msgId).sort()); // each once, none missing, none extra
    for (const r of receiver.received) verified(secrets.get(r.path)!, r);
  });
});
