/**
 * `npm run bench:webhooks`: what the webhook outbox delivers and what it costs a move.
 *
 * 1. Deliveries/s to a local receiver (in this process, answering 200 at once) with 1 and then 2
 *    server instances sweeping one outbox (PUBSUB=postgres): BENCH_MESSAGES messages are written
 *    due at once and timed until the receiver has them all. The baseline is the receiver's own
 *    ceiling: the same POSTs from a plain keep-alive client with the sweeper's concurrency
 *    (SWEEP_BATCH_SIZE), no database.
 * 2. playTile p50/p99 of two humans playing each other, without webhooks on a quiet server (the
 *    baseline), then with webhooks on both (every handed turn writes a message in the commit)
 *    while a flood of other messages keeps the outbox busy.
 * 3. Deliveries/s out of a backlog: BENCH_BACKLOG messages (100,000) due at once over 1,000
 *    endpoints of 1,000 players (an outage's worth), against the rate of phase 1, measured over
 *    its first BENCH_MESSAGES: what a claim costs must not grow with the backlog.
 */
import { createServer } from 'node:http';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { benchDatabase, fmt, gql, percentile, startServerProcess, type ServerProcess } from './support/harness.js';
import { REGISTER } from './support/operations.js';
import { report } from './support/result.js';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 3000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 100_000);
const BACKLOG_ENDPOINTS = 1000;
const BATCH = 20; // SWEEP_BATCH_SIZE's default: the messages one instance sends at once
const BODY = JSON.stringify({
  type: 'TURN',
  timestamp: new Date().toISOString(),
  data: { matchId: '00000000-0000-4000-8000-000000000000', matchVersion: 1, seat: 0 },
});

const MINE = 'query($id: ID!) { match(id: $id) { status turn mySeat version legalMoves { tile { high low } end } canDraw } }';
const PLAY = 'mutation($i: PlayTileInput!) { playTile(input: $i) { status turn } }';
const DRAW = 'mutation($i: TurnInput!) { drawTile(input: $i) { status turn } }';
const CREATE = 'mutation($input: CreateMatchInput!) { createMatch(input: $input) { id } }';
const JOIN = 'mutation($id: ID!) { joinMatch(matchId: $id) { turn } }';
const HOOK = 'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { webhook { id } } }';

/** The receiver: counts what it got, answers 200. */
function receiver(): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      n++;
      res.writeHead(200).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        count: () => n,
        close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
      }),
    ),
  );
}

/** The receiver's ceiling: `total` POSTs of a message body, `BATCH` at a time, keep-alive. */
async function rawPosts(url: string, total: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: BATCH });
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(`${url}/raw`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(BODY);
    });
  const started = performance.now();
  for (let sent = 0; sent < total; sent += BATCH) await Promise.all(Array.from({ length: Math.min(BATCH, total - sent) }, post));
  agent.destroy();
  return (total * 1000) / (performance.now() - started);
}

async function sql<T extends pg.QueryResultRow>(db: string, text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: db });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

/** `n` messages to one endpoint, due now, in one statement. */
const enqueue = (db: string, webhookId: string, n: number) =>
  sql(
    db,
    `INSERT INTO "WebhookMessage" ("id", "webhookId", "msgId", "type", "body", "dueAt")
     SELECT gen_random_uuid(), $1::uuid, 'msg_' || replace(gen_random_uuid()::text, '-', ''), 'TURN', $2, now() FROM generate_series(1, $3::int)`,
    [webhookId, BODY, n],
  );

const pending = async (db: string) =>
  (await sql<{ n: number }>(db, `SELECT count(*)::int AS n FROM "WebhookMessage" WHERE "status" = 'PENDING'`))[0].n;

async function deliveriesPerSecond(db: string, webhookId: string, count: () => number): Promise<number> {
  const before = count();
  await enqueue(db, webhookId, MESSAGES);
  const started = performance.now();
  while (count() - before < MESSAGES) await new Promise((r) => setTimeout(r, 5));
  return (MESSAGES * 1000) / (performance.now() - started);
}

/**
 * Deliveries/s over the first MESSAGES of a backlog of BACKLOG due messages spread over
 * BACKLOG_ENDPOINTS endpoints (of as many players, written directly), all to the receiver.
 */
async function backlogDeliveriesPerSecond(db: string, receiverUrl: string, secretOf: string, count: () => number): Promise<number> {
  await sql(
    db,
    `INSERT INTO "Player" ("id", "name", "tokenHash") SELECT gen_random_uuid(), 'backlog' || i, 'backlog' || i FROM generate_series(1, $1::int) i`,
    [BACKLOG_ENDPOINTS],
  );
  await sql(
    db,
    `INSERT INTO "Webhook" ("id", "playerId", "url", "events", "secret")
     SELECT gen_random_uuid(), p."id", $1, ARRAY['TURN'], w."secret" FROM "Player" p, "Webhook" w WHERE p."name" LIKE 'backlog%' AND w."id" = $2::uuid`,
    [`${receiverUrl}/backlog`, secretOf],
  );
  const before = count();
  await sql(
    db,
    `INSERT INTO "WebhookMessage" ("id", "webhookId", "msgId", "type", "body", "dueAt")
     SELECT gen_random_uuid(), w."id", 'msg_' || replace(gen_random_uuid()::text, '-', ''), 'TURN', $1, now()
     FROM "Webhook" w JOIN "Player" p ON p."id" = w."playerId", generate_series(1, $2::int)
     WHERE p."name" LIKE 'backlog%'`,
    [BODY, Math.ceil(BACKLOG / BACKLOG_ENDPOINTS)],
  );
  const started = performance.now();
  while (count() - before < MESSAGES) await new Promise((r) => setTimeout(r, 5));
  return ((count() - before) * 1000) / (performance.now() - started);
}

async function playLatencies(url: string, seconds: number, tokens: string[]): Promise<number[]> {
  const out: number[] = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const matchId = (await gql<{ createMatch: { id: string } }>(url, CREATE, { input: { seats: 2 } }, tokens[0])).createMatch.id;
    await gql(url, JOIN, { id: matchId }, tokens[1]);
    let live = true;
    while (live && Date.now() < until) {
      for (const token of tokens) {
        const v = (
          await gql<{
            match: { status: string; turn: number; mySeat: number; version: number; legalMoves: { tile: unknown; end: string | null }[] };
          }>(url, MINE, { id: matchId }, token)
        ).match;
        if (v.status !== 'IN_PROGRESS') live = false;
        if (!live || v.turn !== v.mySeat) continue;
        const input = { matchId, expectedVersion: v.version };
        if (v.legalMoves.length === 0) {
          await gql(url, DRAW, { i: input }, token);
          continue;
        }
        const t0 = performance.now();
        await gql(url, PLAY, { i: { ...input, tile: v.legalMoves[0].tile, end: v.legalMoves[0].end } }, token);
        out.push(performance.now() - t0);
      }
    }
  }
  return out.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const db = await benchDatabase();
  const rx = await receiver();
  const env = { PUBSUB: 'postgres', WEBHOOK_ALLOW_PRIVATE: 'true', SWEEP_INTERVAL_MS: '50', SWEEP_BATCH_SIZE: String(BATCH) };
  const servers: ServerProcess[] = [];
  try {
    servers.push(await startServerProcess(db.url, env));
    const url = servers[0].url;
    const token = (name: string) => gql<{ registerPlayer: { token: string } }>(url, REGISTER, { n: name }).then((r) => r.registerPlayer.token);
    const flood = await token('flood');
    const floodHook = (
      await gql<{ createWebhook: { webhook: { id: string } } }>(url, HOOK, { input: { url: `${rx.url}/flood`, events: ['TURN'] } }, flood)
    ).createWebhook.webhook.id;

    await rawPosts(rx.url, 500); // warm-up
    const raw = await rawPosts(rx.url, MESSAGES);
    await deliveriesPerSecond(db.url, floodHook, rx.count); // warm-up
    const one = await deliveriesPerSecond(db.url, floodHook, rx.count);
    servers.push(await startServerProcess(db.url, env));
    const two = await deliveriesPerSecond(db.url, floodHook, rx.count);
    await servers.pop()!.stop();
    console.log(`deliveries/s to a local receiver: 1 instance ${fmt(one, 0)}, 2 instances ${fmt(two, 0)} (${MESSAGES} messages each)`);
    console.log(
      `  ÷ the receiver's ceiling (${fmt(raw, 0)} POSTs/s, ${BATCH} at a time, no database): ${fmt(one / raw, 2)} and ${fmt(two / raw, 2)}; 2 ÷ 1 instances: ${fmt(two / one, 2)}`,
    );

    const humans = [await token('human-a'), await token('human-b')];
    await playLatencies(url, 2, humans); // warm-up
    const quiet = await playLatencies(url, SECONDS, humans);
    for (const h of humans) await gql(url, HOOK, { input: { url: `${rx.url}/human`, events: ['TURN', 'MATCH_STARTED', 'MATCH_FINISHED'] } }, h);
    let flooding = true;
    let flooded = 0;
    const flooder = (async () => {
      while (flooding) {
        if ((await pending(db.url)) < 1000) {
          await enqueue(db.url, floodHook, 200);
          flooded += 200;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const receivedBefore = rx.count();
    const started = performance.now();
    const busy = await playLatencies(url, SECONDS, humans);
    const busyRate = ((rx.count() - receivedBefore) * 1000) / (performance.now() - started);
    flooding = false;
    await flooder;
    const p = (xs: number[], q: number) => percentile(xs, q);
    console.log(
      `playTile with a busy outbox (its players' webhooks on, ${fmt(busyRate, 0)} deliveries/s meanwhile, ${flooded} flood messages) ÷ quiet: ` +
        `p99 ${fmt(p(busy, 99) / p(quiet, 99), 2)}, p50 ${fmt(p(busy, 50) / p(quiet, 50), 2)}`,
    );
    console.log(
      `  quiet: p50 ${fmt(p(quiet, 50), 2)} ms, p99 ${fmt(p(quiet, 99), 2)} ms (${quiet.length} plays)  |  busy: p50 ${fmt(p(busy, 50), 2)} ms, p99 ${fmt(p(busy, 99), 2)} ms (${busy.length} plays)`,
    );

    const backlog = await backlogDeliveriesPerSecond(db.url, rx.url, floodHook, rx.count);
    console.log(
      `deliveries/s out of a backlog of ${BACKLOG} due messages over ${BACKLOG_ENDPOINTS} endpoints: ${fmt(backlog, 0)} (÷ 1 instance with ${MESSAGES} due: ${fmt(backlog / one, 2)})`,
    );
    report({
      backlogDeliveriesPerSecond: backlog,
      backlogOverPlainDeliveries: backlog / one,
      deliveriesPerSecond1: one,
      deliveriesPerSecond2: two,
      receiverCeilingPerSecond: raw,
      oneInstanceOfCeiling: one / raw,
      twoInstancesOfCeiling: two / raw,
      twoOverOneInstances: two / one,
      playTileP99BusyOverQuiet: p(busy, 99) / p(quiet, 99),
      playTileP50BusyOverQuiet: p(busy, 50) / p(quiet, 50),
      busyDeliveriesPerSecond: busyRate,
    });
  } finally {
    for (const s of servers) await s.stop();
    await rx.close();
    await db.stop();
  }
}

await main();
