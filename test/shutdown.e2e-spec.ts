/**
 * Shutdown of the server as deployed (`node dist/src/main.js`), with WebSocket clients still
 * connected: a deploy's SIGTERM must not wait for them to leave.
 */
import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { createTestDatabase, dropTestDatabase } from './setup/test-database.js';
import { GqlClient } from './support/gql.js';
import { RawWs } from './support/raw-ws.js';
import { startServerChild, type ListeningServer } from './support/server-process.js';

/** The promise's value, or a failure naming `what` if it did not settle within `ms` (the old code never did). */
const within = <T>(ms: number, what: string, p: Promise<T>): Promise<T> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms).unref())]);

/** A peer that upgrades to graphql-ws at `port` and then reads nothing: the shutdown waits a second for its close. */
async function mutePeer(port: string): Promise<net.Socket> {
  const mute = net.connect(Number(port), '127.0.0.1');
  mute.on('error', () => {});
  mute.write(
    'GET /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n`,
  );
  await new Promise((resolve) => mute.once('data', resolve)); // 101 Switching Protocols
  mute.pause();
  return mute;
}

/** Resolves once a connection to `port` is refused, polling every 10 ms. */
async function refusesConnections(port: string): Promise<void> {
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const probe = net.connect(Number(port), '127.0.0.1');
      probe.once('connect', () => (probe.destroy(), resolve(false)));
      probe.once('error', () => resolve(true));
    });
    if (refused) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The HTTP/1.1 responses one after another in `text`, each with its Content-Length body. */
function parseResponses(text: string): { status: number; headers: Record<string, string>; body: string }[] {
  const responses = [];
  while (text.length > 0) {
    const end = text.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`an incomplete response: ${JSON.stringify(text)}`);
    const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length']);
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4, end + 4 + length) });
    text = text.slice(end + 4 + length);
  }
  return responses;
}

jest.setTimeout(60_000);

describe('SIGTERM with WebSocket clients connected', () => {
  const serverUrl = process.env.TEST_PG_SERVER_URL!;
  let databaseUrl: string;
  let server: ListeningServer | undefined;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase(serverUrl);
  });
  afterAll(async () => {
    await server?.kill('SIGKILL');
    await dropTestDatabase(serverUrl, databaseUrl);
  });

  it('tells every socket 1001 (going away) and exits 0, a subscriber and a silent client alike', async () => {
    server = await startServerChild({ DATABASE_URL: databaseUrl, MIGRATE_ON_START: 'false' });
    const { registerPlayer } = await new GqlClient(server.url).request<{ registerPlayer: { token: string } }>(
      'mutation { registerPlayer(name: "stays") { token } }',
    );
    const subscriber = new RawWs(server.url, { token: registerPlayer.token });
    await subscriber.ready();
    subscriber.subscribe('turns', 'subscription { myTurns { id } }');
    // A client that connected and then says nothing, not even connection_init.
    const silent = new RawWs(server.url, { init: false });
    await silent.open(); // upgraded: a socket the server must close, not a connection it may drop
    await new Promise((r) => setTimeout(r, 300)); // the subscription has started
    const exited = server.kill('SIGTERM');
    expect(await within(10_000, 'the subscriber closed', subscriber.closed())).toBe(1001);
    expect(await within(10_000, 'the silent client closed', silent.closed())).toBe(1001);
    expect(await within(10_000, 'the process exited', exited)).toBe(0);
    expect(server.output()).not.toContain('SHUTDOWN_TIMEOUT_MS');
  });

  it('exits at once, with 1, on a second signal while it shuts down', async () => {
    server = await startServerChild({ DATABASE_URL: databaseUrl, MIGRATE_ON_START: 'false' });
    // A peer that upgraded and then reads nothing: the shutdown waits a second for its close.
    const { port } = new URL(server.url);
    const mute = await mutePeer(port);
    server.child.kill('SIGTERM');
    for (let i = 0; i < 200 && !server.output().includes('SIGTERM: shutting down'); i++) await new Promise((r) => setTimeout(r, 10));
    const exited = server.kill('SIGTERM');
    expect(await within(10_000, 'the process exited', exited)).toBe(1);
    expect(server.output()).toContain('SIGTERM again: exiting without waiting for the shutdown');
    mute.destroy();
  });

  it('answers a request arriving on a kept-alive connection during the close as any other (Connection: close), never a bare 503', async () => {
    server = await startServerChild({ DATABASE_URL: databaseUrl, MIGRATE_ON_START: 'false' });
    const { port } = new URL(server.url);
    const body = JSON.stringify({ query: '{ __typename }' });
    const head = `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    // A connection kept alive, as a proxy keeps it, with a first request under way when the signal
    // comes: its headers are in and its body is not, so the close leaves the connection open.
    const kept = net.connect(Number(port), '127.0.0.1');
    let received = '';
    kept.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const keptClosed = new Promise((resolve) => kept.once('close', resolve));
    await new Promise((resolve) => kept.once('connect', resolve));
    kept.write(head + body.slice(0, 5));
    await new Promise((r) => setTimeout(r, 200));
    const exited = server.kill('SIGTERM');
    // Once the server refuses new connections it is closing (it stops listening after it marks itself closing).
    await within(5_000, 'the server stopped listening', refusesConnections(port));
    // The rest of the first request and, behind it on the same connection, a second one: it arrives during the close.
    kept.write(body.slice(5) + head + body);
    await within(5_000, 'the kept connection closed', keptClosed);
    expect(await within(10_000, 'the process exited', exited)).toBe(0);
    const answers = parseResponses(received);
    expect(answers.map((a) => [a.status, a.body])).toEqual([
      [200, '{"data":{"__typename":"Query"}}\n'],
      [200, '{"data":{"__typename":"Query"}}\n'],
    ]);
    expect(answers[1].headers.connection).toBe('close'); // answered, and told the connection ends here
  });

  it('cuts a request still arriving a second into the close, instead of waiting out its timeout', async () => {
    // Every timeout that could cut it far away: only the shutdown may.
    server = await startServerChild({
      DATABASE_URL: databaseUrl,
      MIGRATE_ON_START: 'false',
      HTTP_REQUEST_TIMEOUT_MS: '60000',
      HTTP_CONNECTION_TIMEOUT_MS: '60000',
      SHUTDOWN_TIMEOUT_MS: '60000',
    });
    const { port } = new URL(server.url);
    // Headers sent, the body promised and begun, the rest never comes; and headers never finished.
    const trickling = [
      'POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query"',
      'GET /graphql?query=%7B__typename%7D HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ',
    ].map((text) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      socket.on('error', () => {});
      socket.write(text);
      return new Promise((resolve) => socket.once('close', resolve));
    });
    await new Promise((r) => setTimeout(r, 300)); // both are in: connections the server knows of
    const exited = server.kill('SIGTERM');
    expect(await within(8_000, 'the process exited', exited)).toBe(0);
    await within(1_000, 'the connections closed', Promise.all(trickling));
  });
});

describe('SIGTERM to a cluster (WORKERS=2)', () => {
  const serverUrl = process.env.TEST_PG_SERVER_URL!;
  let databaseUrl: string;
  let server: ListeningServer | undefined;
  const env = () => ({ DATABASE_URL: databaseUrl, WORKERS: '2', PUBSUB: 'postgres' });
  beforeAll(async () => {
    databaseUrl = await createTestDatabase(serverUrl);
  });
  afterEach(async () => {
    // The workers too, whatever the test left (none, when it passed).
    if (server?.child.pid) {
      try {
        process.kill(-server.child.pid, 'SIGKILL');
      } catch {
        // the group is gone
      }
    }
    await server?.exited;
  });
  afterAll(async () => {
    await dropTestDatabase(serverUrl, databaseUrl);
  });

  it('shuts every worker down in order, exit 0, when the whole process group has the signal (Ctrl-C, systemd)', async () => {
    server = await startServerChild(env(), 60_000, { group: true });
    expect((await new GqlClient(server.url).raw('{ __typename }')).status).toBe(200);
    process.kill(-server.child.pid!, 'SIGTERM');
    expect(await within(20_000, 'the process exited', server.exited)).toBe(0);
    expect(server.output()).not.toMatch(/again/);
    // Each worker once, by its own signal or the primary's request, whichever came first.
    expect(server.output().match(/shutting down/g)).toHaveLength(2);
  });

  it("exits 1 when a worker's shutdown overran SHUTDOWN_TIMEOUT_MS, the last one to exit included", async () => {
    server = await startServerChild({ ...env(), SHUTDOWN_TIMEOUT_MS: '1000' }, 60_000, { group: true });
    // Peers that upgraded and read nothing, on both workers (connections go to each in turn):
    // each worker waits a second for them, which is all its shutdown may take.
    const { port } = new URL(server.url);
    const mutes = await Promise.all(Array.from({ length: 4 }, () => mutePeer(port)));
    server.child.kill('SIGTERM');
    expect(await within(10_000, 'the process exited', server.exited)).toBe(1);
    expect(server.output().match(/not done after 1000 ms/g)).toHaveLength(2);
    for (const mute of mutes) mute.destroy();
  });

  it('exits at once, with 1, workers and all, on a second signal to the primary', async () => {
    server = await startServerChild(env(), 60_000, { group: true });
    // A peer that upgraded and reads nothing: its worker's shutdown waits a second for its close.
    const { port } = new URL(server.url);
    const mute = await mutePeer(port);
    server.child.kill('SIGTERM');
    for (let i = 0; i < 200 && (server.output().match(/shutdown requested by the primary/g) ?? []).length < 2; i++)
      await new Promise((r) => setTimeout(r, 10));
    server.child.kill('SIGTERM');
    expect(await within(10_000, 'the process exited', server.exited)).toBe(1);
    expect(server.output()).toContain('signal again: stopping every worker at once');
    mute.destroy();
  });
});
