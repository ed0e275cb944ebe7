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
    const mute = net.connect(Number(port), '127.0.0.1');
    mute.on('error', () => {});
    mute.write(
      'GET /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n`,
    );
    await new Promise((resolve) => mute.once('data', resolve)); // 101 Switching Protocols
    mute.pause();
    server.child.kill('SIGTERM');
    for (let i = 0; i < 200 && !server.output().includes('SIGTERM: shutting down'); i++) await new Promise((r) => setTimeout(r, 10));
    const exited = server.kill('SIGTERM');
    expect(await within(10_000, 'the process exited', exited)).toBe(1);
    expect(server.output()).toContain('SIGTERM again: exiting without waiting for the shutdown');
    mute.destroy();
  });
});
