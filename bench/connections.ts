/**
 * `npm run bench:connections`: what idle graphql-ws connections cost the server, up to the
 * open-file limit of one process. BENCH_CONNECTIONS (default 18,000) sockets, each with one
 * `matchEvents` subscription (4 matches, their players and anonymous spectators, two documents),
 * held by child processes of their own (bench/support/fleet.ts): the server under test holds one
 * end of each, and needs a file per socket within its limit (`ulimit -n`).
 *
 * Server RSS and heap are read once the latency-free server is up and again once it counts every
 * subscription: bytes per connection = the growth ÷ the connections held. Baseline, same run: the
 * sockets (3,000 of them) held by a bare `ws` server (no GraphQL, no subscription), per socket.
 * Then one move in one match must reach all its watchers.
 *
 * Prints plain lines and a BENCH_RESULT line; exits 0 whether or not the target is met.
 */
import { benchDatabase, fmt, metrics, startServerProcess, watchdog } from './support/harness.js';
import { report } from './support/result.js';
import { Floor, fourSeatMatch, moveAndWait, openWatchers, watchersOf } from './support/watchers.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 18_000);
const MATCHES = 4;
const TARGET_BYTES = 20 * 1024;
/** Sockets of the bare baseline: enough for a per-socket figure, few enough to open quickly. */
const FLOOR_SOCKETS = Math.min(CONNECTIONS, 3_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const t0 = Date.now();
  const db = await benchDatabase();
  const server = await startServerProcess(db.url, { WS_MAX_SOCKETS_PER_ADDRESS: String(CONNECTIONS + 1_000) });
  const timer = watchdog('bench:connections', 3_600_000, server, db);
  const floor = await Floor.start();
  try {
    const url = server.url;
    console.log(
      `bench:connections — ${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL'}, server pid ${server.child.pid}, ${CONNECTIONS} connections`,
    );
    const matches = await Promise.all(Array.from({ length: MATCHES }, (_, i) => fourSeatMatch(url, `conn${i}`)));
    await sleep(1000);
    const before = await metrics(url);
    const floorBefore = await floor.memory();
    const sockets = matches.flatMap((m, i) => watchersOf(m, Math.floor(CONNECTIONS / MATCHES) + (i < CONNECTIONS % MATCHES ? 1 : 0)));
    // Progress while opening (a loaded machine may take minutes): held so far and bytes each.
    let opening = true;
    const progress = (async () => {
      while (opening) {
        await sleep(20_000);
        if (!opening) break;
        const now = await metrics(url).catch(() => null); // the server may be too busy accepting to answer
        if (!now) continue;
        const held = now.openSubscriptions - before.openSubscriptions;
        if (held > 0) console.log(`  … ${held} held, ${fmt((now.rssBytes - before.rssBytes) / held / 1024, 2)} KB per connection so far`);
      }
    })();
    const opened = await openWatchers(url, sockets, floor.sockets('idle', FLOOR_SOCKETS));
    opening = false;
    await progress;
    await sleep(2000);
    const after = await metrics(url);
    const floorAfter = await floor.memory();
    const perConn = (after.rssBytes - before.rssBytes) / Math.max(1, opened.held);
    const heapPerConn = (after.heapUsedBytes - before.heapUsedBytes) / Math.max(1, opened.held);
    const floorPerConn = (floorAfter.rssBytes - floorBefore.rssBytes) / Math.max(1, floorAfter.sockets);
    console.log(
      `opened ${sockets.length} connections in ${fmt(opened.seconds)}s: ${opened.held} subscriptions held by the server (${opened.failed} failed` +
        `${opened.firstError ? `, e.g. ${opened.firstError}` : ''})`,
    );
    console.log(
      `server RSS ${fmt(before.rssBytes / 2 ** 20)} → ${fmt(after.rssBytes / 2 ** 20)} MB: ${fmt(perConn / 1024, 2)} KB per connection ` +
        `(heap ${fmt(heapPerConn / 1024, 2)} KB) — target ≤ ${TARGET_BYTES / 1024} KB at ${CONNECTIONS}: ` +
        `${opened.held >= CONNECTIONS && perConn <= TARGET_BYTES ? 'target met' : 'target missed'}`,
    );
    console.log(
      `baseline, same run: a bare ws server holding ${floorAfter.sockets} sockets of the same holders: ${fmt(floorPerConn / 1024, 2)} KB per socket; ` +
        `server ÷ bare = ${fmt(perConn / floorPerConn, 2)}`,
    );
    const move = await moveAndWait(url, opened.fleet, matches[0]);
    console.log(`sanity: one move reached ${move.reached} of its ${move.watching} watchers, the last ${fmt(move.lastMs, 0)} ms after the commit-ack`);
    report({ idleConnections: opened.held, idleBytesPerConn: perConn, idleHeapBytesPerConn: heapPerConn, idleBareBytesPerConn: floorPerConn });
    await opened.fleet.close();
  } finally {
    floor.stop();
    await server.stop();
    await db.stop();
    clearTimeout(timer);
  }
  console.log(`done in ${fmt((Date.now() - t0) / 1000, 0)}s`);
}

await main();
process.exit(0);
