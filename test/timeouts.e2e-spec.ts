import net from 'node:net';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../src/database/prisma.service.js';
import { startTestApp, type TestApp } from './support/app.js';

/** Opens a TCP connection to the server that sends `head` and then one more byte every `everyMs`. */
function trickle(url: string, head: string, everyMs: number): { closed: Promise<string> } {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  let answer = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => (answer += d));
  // The trickle starts once connected: a socket is writable before it connects, and on a loaded
  // machine an 'X' queued then would go out before the head and make the request malformed (400).
  let timer: NodeJS.Timeout | undefined;
  socket.on('connect', () => {
    socket.write(head);
    timer = setInterval(() => socket.writable && socket.write('X'), everyMs);
  });
  const closed = new Promise<string>((resolve) => {
    socket.on('close', () => {
      clearInterval(timer);
      resolve(answer);
    });
    socket.on('error', () => {});
  });
  return { closed };
}

describe('timeouts', () => {
  let app: TestApp;
  beforeAll(
    async () =>
      (app = await startTestApp({
        HTTP_REQUEST_TIMEOUT_MS: '1000',
        HTTP_KEEPALIVE_TIMEOUT_MS: '300',
        DB_POOL_SIZE: '2',
        DB_ACQUIRE_TIMEOUT_MS: '300',
        DB_STATEMENT_TIMEOUT_MS: '500',
      })),
  );
  afterAll(() => app.close());

  it('cuts 200 connections that trickle a request a byte at a time, and keeps serving others', async () => {
    const slow = Array.from({ length: 100 }, () => trickle(app.url, 'POST /graphql HTTP/1.1\r\nHost: x\r\nX-Slow: ', 200)).concat(
      Array.from({ length: 100 }, () =>
        trickle(app.url, 'POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{', 200),
      ),
    );
    expect(await app.anon.request('{ __typename }')).toEqual({ __typename: 'Query' });
    const answers = await Promise.all(slow.map((s) => s.closed));
    // Node answers 408 to a request that did not arrive in time (headers or body alike).
    expect(answers.filter((a) => a !== '' && !a.startsWith('HTTP/1.1 408')).map((a) => a.slice(0, 200))).toEqual([]);
    expect(await app.anon.request('{ __typename }')).toEqual({ __typename: 'Query' });
  });

  it('closes an idle keep-alive connection after HTTP_KEEPALIVE_TIMEOUT_MS', async () => {
    const { hostname, port } = new URL(app.url);
    const socket = net.connect(Number(port), hostname);
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    socket.write(`GET /health HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n\r\n`);
    await new Promise((resolve) => socket.on('close', resolve));
    expect(answer).toMatch(/^HTTP\/1.1 200/);
  });

  it('sets statement_timeout on every pooled connection, and a slower statement is cancelled', async () => {
    const prisma = app.server.app.get(PrismaService);
    expect(await prisma.poolQuery<{ statement_timeout: string }>(Prisma.sql`SHOW statement_timeout`)).toEqual([{ statement_timeout: '500ms' }]);
    await expect(prisma.poolQuery(Prisma.sql`SELECT pg_sleep(2)`)).rejects.toMatchObject({ code: '57014' });
  });

  it('fails a request that waits DB_ACQUIRE_TIMEOUT_MS for a pooled connection instead of queueing forever', async () => {
    const prisma = app.server.app.get(PrismaService);
    const busy = [prisma.poolQuery(Prisma.sql`SELECT pg_sleep(0.45)`), prisma.poolQuery(Prisma.sql`SELECT pg_sleep(0.45)`)];
    await expect(prisma.poolQuery(Prisma.sql`SELECT 1`)).rejects.toThrow(/timeout exceeded when trying to connect/);
    await Promise.all(busy);
    expect(await prisma.poolQuery(Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
  });
});
