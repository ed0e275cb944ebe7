/**
 * Shutdown of the server as deployed (`node dist/src/main.js`), with WebSocket clients still
 * connected: a deploy's SIGTERM must not wait for them to leave.
 */
import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
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

  it('answers a request arriving on a kept-alive connection during the close as any other, never a bare 503', async () => {
    server = await startServerChild({ DATABASE_URL: databaseUrl, MIGRATE_ON_START: 'false', RATE_LIMIT_HTTP_ADDRESS: 'off' });
    const { port } = new URL(server.url);
    const body = JSON.stringify({ query: '{ __typename }' });
    const answers: { status: number; body: string }[] = [];
    let failures = 0;
    let stopping = false;
    // Clients that keep their connection and send one request after another, as a proxy does.
    const client = async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      while (!stopping) {
        try {
          answers.push(
            await new Promise((resolve, reject) => {
              const req = http.request(
                { host: '127.0.0.1', port, path: '/graphql', method: 'POST', agent, headers: { 'content-type': 'application/json' } },
                (res) => {
                  let text = '';
                  res.on('data', (c: Buffer) => (text += c.toString()));
                  res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
                },
              );
              req.on('error', reject);
              req.end(body);
            }),
          );
        } catch {
          failures++; // the server is gone: connection refused or closed
          if (failures > 200) break;
          await new Promise((r) => setTimeout(r, 5));
        }
      }
      agent.destroy();
    };
    const clients = Array.from({ length: 40 }, client);
    for (let i = 0; i < 500 && answers.length < 40; i++) await new Promise((r) => setTimeout(r, 20)); // every client is in
    const exited = server.kill('SIGTERM');
    const running = server;
    for (let i = 0; i < 500 && !running.output().includes('shutting down'); i++) await new Promise((r) => setTimeout(r, 10));
    const atSignal = answers.length;
    expect(await within(10_000, 'the process exited', exited)).toBe(0);
    stopping = true;
    await Promise.all(clients);
    expect(answers.length).toBeGreaterThan(atSignal); // answered while it shut down
    expect(answers.filter((a) => a.status !== 200 || a.body !== '{"data":{"__typename":"Query"}}\n')).toEqual([]);
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
