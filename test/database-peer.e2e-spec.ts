/**
 * A database peer that goes silent: the connections stay open but nothing comes back, and no FIN
 * or RST ever tells (a failover, a lost NAT entry, a dead host behind a proxy). New connections
 * reach the database again. The server must notice on its own, within its timeouts.
 */
import { startTestApp, type TestApp } from './support/app.js';
import { feedsStarted } from './support/feeds.js';
import { longMatch, oneMove } from './support/moves.js';
import { RawWs } from './support/raw-ws.js';
import { TcpProxy } from './support/tcp-proxy.js';

const LIVE = `subscription($id: ID!) { matchEvents(matchId: $id) { seq type } }`;

/** The promise's value, or a failure if it did not settle within `ms` (the old code waited for good). */
const within = <T>(ms: number, p: Promise<T>): Promise<T> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);

describe('a database peer that goes silent (PUBSUB=postgres)', () => {
  let app: TestApp;
  let proxy: TcpProxy;
  beforeAll(async () => {
    const db = new URL(process.env.TEST_PG_SERVER_URL!);
    proxy = await TcpProxy.start({ host: db.hostname, port: Number(db.port || 5432) });
    const through = (url: string) => Object.assign(new URL(url), { hostname: '127.0.0.1', port: String(proxy.port) }).toString();
    // Live events only from LISTEN (no re-check of the table), and short timeouts so the test is
    // quick, yet long enough that a loaded machine's slow answers are not taken for silence (1 s
    // statements failed the setup's commands once).
    app = await startTestApp(
      { PUBSUB: 'postgres', DB_HEARTBEAT_MS: '1000', DB_STATEMENT_TIMEOUT_MS: '3000', FEED_RECHECK_MS: '0', MATCH_CACHE_TTL_MS: '0' },
      { reachDatabaseAt: through },
    );
  });
  afterAll(async () => {
    await proxy?.close(); // first: the connections it froze then fail at once instead of waiting
    await app?.close();
  });

  it('replaces its silent connections: commands answer again, and live events flow on a new LISTEN session', async () => {
    const [a, b] = [await app.player(), await app.player()];
    const { id, bySeat } = await longMatch(a, b);
    const ws = new RawWs(app.url);
    try {
      await ws.ready();
      ws.subscribe('live', LIVE, { id });
      await feedsStarted(app.server, { matchId: id });
      proxy.freezeExisting();
      // A command on a connection gone silent fails once the client stops waiting, and the pool drops
      // that connection; one on a new connection applies, and its event comes over the new LISTEN.
      for (let i = 0; i < 20 && ws.of('live').length === 0; i++) {
        await within(10_000, oneMove(bySeat, id)).catch((e: Error) => {
          if (e.message.startsWith('no answer')) throw e;
        });
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(ws.of('live').length).toBeGreaterThan(0);
    } finally {
      ws.terminate();
    }
  });
});
