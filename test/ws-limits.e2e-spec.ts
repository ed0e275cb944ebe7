import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { PlayersService } from '../src/players/players.service.js';
import { FeedRegistry } from '../src/subscriptions/feed-registry.js';
import { startTestApp, type TestApp } from './support/app.js';
import { eventually } from './support/eventually.js';
import type { GqlErrorShape } from './support/gql.js';
import { growth, memoryAfterGc } from './support/memory.js';
import { longMatch, oneMove } from './support/moves.js';
import { RawWs } from './support/raw-ws.js';

const EVENTS = (fields: string) => `subscription($id: ID!, $after: Int) { matchEvents(matchId: $id, afterSeq: $after) { seq ${fields} } }`;

/**
 * Sends a WebSocket frame header announcing `length` bytes and only a few of them: the server must
 * answer from the header alone. Resolves with the close code the server sent.
 */
function announceHugeFrame(httpUrl: string, length: number): Promise<number> {
  const { hostname, port } = new URL(httpUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let buf = Buffer.alloc(0);
    let upgraded = false;
    socket.on('error', reject);
    socket.on('connect', () =>
      socket.write(
        `GET /graphql HTTP/1.1\r\nHost: ${hostname}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n`,
      ),
    );
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (!upgraded) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        upgraded = true;
        buf = buf.subarray(end + 4);
        const header = Buffer.alloc(14);
        header[0] = 0x81; // FIN + text
        header[1] = 0x80 | 127; // masked, 64-bit length
        header.writeBigUInt64BE(BigInt(length), 2);
        socket.write(Buffer.concat([header, randomBytes(4), Buffer.from('{"type":')]));
      }
      if (buf.length >= 4 && (buf[0] & 0x0f) === 0x8) {
        resolve(buf.readUInt16BE(2));
        socket.destroy();
      }
    });
  });
}

describe('graphql-ws bounds (defaults)', () => {
  let app: TestApp;
  beforeAll(async () => (app = await startTestApp()));
  afterAll(() => app.close());

  it('closes with 1009 a message announced at 100 MiB, from its header alone', async () => {
    expect(await announceHugeFrame(app.url, 100 * 1024 * 1024)).toBe(1009);
  });

  it('closes with 1009 a real message over WS_MAX_PAYLOAD_BYTES (64 KiB)', async () => {
    const ws = new RawWs(app.url);
    await ws.ready();
    ws.subscribe('big', `{ __typename } # ${'x'.repeat(65 * 1024)}`);
    expect(await ws.closed()).toBe(1009);
  });

  it('refuses the subscription past WS_MAX_SUBSCRIPTIONS_PER_SOCKET (20) and keeps the others', async () => {
    const p = await app.player();
    const { id } = await p
      .request<{ createMatch: { id: string } }>('mutation { createMatch(input: { seats: 2 }) { id } }')
      .then((r) => r.createMatch);
    const ws = new RawWs(app.url);
    await ws.ready();
    for (let i = 1; i <= 21; i++) ws.subscribe(`s${i}`, EVENTS('type'), { id, after: 0 });
    await ws.until(() => ws.of('s21').length > 0 && ws.of('s20').length > 0);
    const [refusal] = ws.of('s21');
    expect(refusal.type).toBe('error');
    expect((refusal.payload as GqlErrorShape[])[0]).toMatchObject({
      message: 'Too many subscriptions on this connection (WS_MAX_SUBSCRIPTIONS_PER_SOCKET = 20)',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(ws.of('s20')[0].type).toBe('next');
    expect(ws.closeCode).toBeNull();
    ws.terminate();
  });

  it('closes with 4409 a socket that subscribes again with an id whose first operation is still starting, and nothing of it runs on', async () => {
    const p = await app.player();
    const { id } = await p
      .request<{ createMatch: { id: string } }>('mutation { createMatch(input: { seats: 2 }) { id } }')
      .then((r) => r.createMatch);
    const feeds = app.server.app.get(FeedRegistry);
    const before = feeds.openFeeds;
    const ws = new RawWs(app.url);
    await ws.ready();
    // One write: graphql-ws reads every message before the first subscription has started.
    const socket = (ws.ws as unknown as { _socket: { cork(): void; uncork(): void } })._socket;
    socket.cork();
    for (let i = 0; i < 10; i++) {
      ws.subscribe('x', EVENTS('type'), { id, after: 0 });
      ws.send({ id: 'x', type: 'complete' });
    }
    ws.subscribe('x', EVENTS('type'), { id, after: 0 });
    socket.uncork();
    expect(await ws.closed()).toBe(4409);
    expect(ws.closeReason).toBe('Subscriber for x already exists (it is still starting)');
    // Every feed the socket started has ended with it.
    const deadline = Date.now() + 5_000;
    while (feeds.openFeeds > before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(feeds.openFeeds).toBe(before);
  });

  it('closes with 4500, not 4403, when the token cannot be looked up (the database is away): the token is not at fault', async () => {
    const p = await app.player();
    const players = app.server.app.get(PlayersService);
    const session = players.session.bind(players);
    players.session = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    try {
      const ws = new RawWs(app.url, { token: p.token });
      expect(await ws.closed()).toBe(4500);
      expect(ws.closeReason).toBe('Internal server error');
    } finally {
      players.session = session;
    }
  });

  it('gives back the slots of sockets that leave while their connection_init is being checked', async () => {
    const p = await app.player();
    // The token's check takes a while (a slow database, a Redis round trip for the rate limit).
    const players = app.server.app.get(PlayersService);
    const session = players.session.bind(players);
    players.session = async (authorization) => {
      await new Promise((r) => setTimeout(r, 200));
      return session(authorization);
    };
    try {
      // Eight clients send connection_init and go at once.
      const leaving = Array.from({ length: 8 }, () => new RawWs(app.url, { token: p.token }));
      await Promise.all(leaving.map((s) => s.open()));
      await new Promise((r) => setImmediate(r));
      for (const s of leaving) s.terminate();
      await Promise.all(leaving.map((s) => s.closed()));
      await new Promise((r) => setTimeout(r, 400)); // the checks finish after the sockets closed
      // The player's eight slots are all free.
      const staying = Array.from({ length: 8 }, () => new RawWs(app.url, { token: p.token }));
      await Promise.all(staying.map((s) => s.ready()));
      expect(staying.map((s) => s.closeCode)).toEqual(Array(8).fill(null));
      for (const s of staying) s.terminate();
    } finally {
      players.session = session;
    }
  });

  it('closes with 4290 a player’s socket past WS_MAX_SOCKETS_PER_PLAYER (8)', async () => {
    const p = await app.player();
    const sockets = Array.from({ length: 8 }, () => new RawWs(app.url, { token: p.token }));
    await Promise.all(sockets.map((s) => s.ready()));
    const ninth = new RawWs(app.url, { token: p.token });
    expect(await ninth.closed()).toBe(4290);
    expect(ninth.closeReason).toBe('Too many connections for this player (WS_MAX_SOCKETS_PER_PLAYER = 8)');
    // Closing one makes room again.
    sockets[0].terminate();
    await sockets[0].closed();
    const again = new RawWs(app.url, { token: p.token });
    await again.ready();
    for (const s of [...sockets, again]) s.terminate();
  });

  it('never keeps refused documents: 30 large invalid subscriptions leave the memory as it was', async () => {
    // ~60 KiB each, under the token limit: long names, so each is costly to hold if kept.
    const doc = (i: number) => `subscription { ${Array.from({ length: 500 }, (_, k) => `f${i}_${k}${'x'.repeat(110)}`).join(' ')} }`;
    expect(doc(0).length).toBeGreaterThan(50_000);
    const warm = new RawWs(app.url);
    await warm.ready();
    warm.subscribe('w', doc(999));
    await warm.until(() => warm.of('w').length > 0);
    warm.terminate();
    const before = await memoryAfterGc();
    for (let i = 0; i < 30; i++) {
      const ws = new RawWs(app.url);
      await ws.ready();
      ws.subscribe('x', doc(i));
      await ws.until(() => ws.of('x').length > 0);
      expect(ws.of('x')[0].type).toBe('error');
      ws.terminate();
      await ws.closed();
    }
    const g = growth(before, await memoryAfterGc());
    // Kept, they would be ~30 × 60 KiB of text plus their parsed documents (~10 MiB).
    expect(g.heapMiB).toBeLessThan(4);
    expect(g.rssMiB).toBeLessThan(64);
  });
});

describe('graphql-ws bounds (configured low)', () => {
  let app: TestApp;
  beforeAll(
    async () =>
      (app = await startTestApp({
        WS_INIT_TIMEOUT_MS: '300',
        WS_IDLE_TIMEOUT_MS: '600',
        WS_MAX_SOCKETS_PER_ADDRESS: '12',
        WS_SUBSCRIPTION_QUEUE: '10',
        // The paused reader's test asks for large events on purpose (to fill the socket's buffers fast).
        GRAPHQL_MAX_COST: '1000000',
        WS_KEEPALIVE_MS: '120000',
      })),
  );
  afterAll(() => app.close());

  it('closes with 4408 a socket that sends no connection_init within WS_INIT_TIMEOUT_MS', async () => {
    const ws = new RawWs(app.url, { init: false });
    await ws.open();
    expect(await ws.closed()).toBe(4408);
  });

  it('closes with 4292 a socket without a subscription for WS_IDLE_TIMEOUT_MS, and not one with a subscription', async () => {
    const p = await app.player();
    const { id } = (await p.request<{ createMatch: { id: string } }>('mutation { createMatch(input: { seats: 2 }) { id } }')).createMatch;
    const idle = new RawWs(app.url);
    const busy = new RawWs(app.url);
    await Promise.all([idle.ready(), busy.ready()]);
    busy.subscribe('e', EVENTS('type'), { id });
    expect(await idle.closed()).toBe(4292);
    expect(busy.closeCode).toBeNull();
    busy.terminate();
  });

  it('closes with 4291 a paused reader whose subscriptions fall WS_SUBSCRIPTION_QUEUE events behind, with bounded memory', async () => {
    const [a, b] = [await app.player(), await app.player()];
    const { id, bySeat } = await longMatch(a, b);
    // A match with history, so that every event this reader asks for is large (~100 KiB) and the
    // socket's buffers fill within a few moves: graphql-ws's own keep-alive cuts a reader that
    // stops reading pings after 12–24 s, and the queue's bound must act well before that.
    for (let i = 0; i < 50; i++) await oneMove(bySeat, id);
    const feeds = app.server.app.get(FeedRegistry);
    const heavy = EVENTS(
      `match { ${Array.from({ length: 30 }, (_, i) => `r${i}: rounds { moves { seq seat type tile { high low } end points count } }`).join(' ')} }`,
    );
    const before = await memoryAfterGc();
    const reader = new RawWs(app.url);
    await reader.ready();
    for (let i = 0; i < 5; i++) reader.subscribe(`s${i}`, heavy, { id });
    await reader.until(() => feeds.openFeeds >= 5);
    reader.pause();
    let moves = 0;
    while (feeds.openFeeds > 0 && moves < 100) {
      await oneMove(bySeat, id);
      moves++;
    }
    expect(feeds.openFeeds).toBe(0);
    reader.resume();
    expect(await reader.closed()).toBe(4291);
    expect(reader.closeReason).toBe('Fell behind by 10 events (WS_SUBSCRIPTION_QUEUE): resubscribe with afterSeq');
    const g = growth(before, await memoryAfterGc());
    // Unbounded, the queues would hold every event of every move (~0.5 MiB a move here).
    expect(g.heapMiB).toBeLessThan(32);
    expect(g.rssMiB).toBeLessThan(128);
    // It resumes where it was: every event after the last one it saw, in order.
    const seen = Math.max(
      ...reader
        .of('s0')
        .filter((m) => m.type === 'next')
        .map((m) => (m.payload as { data: { matchEvents: { seq: number } } }).data.matchEvents.seq),
    );
    const again = new RawWs(app.url);
    await again.ready();
    again.subscribe('r', EVENTS('type'), { id, after: seen });
    await again.until(() => again.of('r').length >= 3);
    const seqs = again.of('r').map((m) => (m.payload as { data: { matchEvents: { seq: number } } }).data.matchEvents.seq);
    expect(seqs.slice(0, 3)).toEqual([seen + 1, seen + 2, seen + 3]);
    again.terminate();
  });
});

describe('sockets per address (WS_MAX_SOCKETS_PER_ADDRESS = 12)', () => {
  let app: TestApp;
  // The default init and idle timeouts: a socket closed for idling would free a place meanwhile.
  beforeAll(async () => (app = await startTestApp({ WS_MAX_SOCKETS_PER_ADDRESS: '12' })));
  afterAll(() => app.close());

  it('refuses the upgrade with HTTP 429 past WS_MAX_SOCKETS_PER_ADDRESS', async () => {
    const open = Array.from({ length: 12 }, () => new RawWs(app.url));
    await Promise.all(open.map((s) => s.ready()));
    await expect(new RawWs(app.url).open()).rejects.toThrow('upgrade refused with HTTP 429');
    for (const s of open) s.terminate();
  });
});

describe('WebSocket keep-alive (WS_KEEPALIVE_MS = 2 s)', () => {
  let app: TestApp;
  // Two seconds for a pong: a loaded machine's answering client is never late by that much.
  beforeAll(async () => (app = await startTestApp({ WS_KEEPALIVE_MS: '2000' })));
  afterAll(() => app.close());

  it('keeps a client that answers the pings, and drops one that stopped reading even if it sends pongs of its own', async () => {
    const answering = new RawWs(app.url);
    const stuck = new RawWs(app.url);
    await Promise.all([answering.ready(), stuck.ready()]);
    // The stuck client reads nothing more (its pings wait unread) but sends a pong every 200 ms.
    stuck.pause();
    const pongs = setInterval(() => stuck.ws.pong(Buffer.from('still here')), 200);
    try {
      // Pinged within 2 s, found silent 2 s later: terminated within 4 s and some (a loaded machine: more).
      await eventually(
        () => stuck.ws.readyState,
        (state) => state === stuck.ws.CLOSED,
        'the stuck client terminated',
        20_000,
      );
      // Terminated: no close frame reached it (1006 on the client's side); the answering client, pinged as often, stays.
      expect(stuck.closeCode).toBe(1006);
      expect(answering.closeCode).toBeNull();
    } finally {
      clearInterval(pongs);
      answering.terminate();
      stuck.terminate();
    }
  });
});
