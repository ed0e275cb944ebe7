import { startServer, type RunningServer } from '../src/bootstrap.js';
import { loadConfig } from '../src/config/config.js';
import { startTestApp, UNLIMITED, type TestApp } from './support/app.js';
import { GqlClient } from './support/gql.js';
import { eventually } from './support/eventually.js';
import { RawWs } from './support/raw-ws.js';
import { Subscriber } from './support/ws.js';

const M_ROTATE = `mutation { rotateToken { token player { id name } } }`;
const M_REVOKE = `mutation { revokeToken }`;
const Q_ME = `{ me { id } }`;
const S_TURNS = `subscription { myTurns { id } }`;

describe('token rotation and revocation', () => {
  let app: TestApp;
  let b: RunningServer;
  beforeAll(async () => {
    // Two instances on one database need PUBSUB=postgres (a memory instance refuses a neighbour).
    app = await startTestApp({ TOKEN_CACHE_TTL_MS: '300', PUBSUB: 'postgres' });
    b = await startServer(
      loadConfig({
        ...UNLIMITED,
        TOKEN_CACHE_TTL_MS: '300',
        PUBSUB: 'postgres',
        LOG_LEVEL: 'silent',
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: app.databaseUrl,
        MIGRATE_ON_START: 'false',
      }),
      { logger: false },
    );
  });
  afterAll(async () => {
    await b.close();
    await app.close();
  });

  it('rotateToken returns a new token for the same player; the old one dies at once, and its sockets close with 4403', async () => {
    const ann = await app.player('ann');
    const live = new Subscriber(app.url, ann.token).subscribe(S_TURNS, {}, (d) => d);
    await live.ready();
    expect(await new GqlClient(app.url, ann.token).request(Q_ME)).toEqual({ me: { id: ann.id } }); // cached now
    const { rotateToken } = await ann.request<{ rotateToken: { token: string; player: { id: string; name: string } } }>(M_ROTATE);
    expect(rotateToken.player).toEqual({ id: ann.id, name: 'ann' });
    expect(rotateToken.token).not.toBe(ann.token);
    const old = await ann.raw(Q_ME);
    expect(old.status).toBe(401);
    expect(old.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(await new GqlClient(app.url, rotateToken.token).request(Q_ME)).toEqual({ me: { id: ann.id } });
    expect(await live.closed()).toBe(4403);
    // A new socket with the old token is refused; with the new one it is accepted.
    expect(await new Subscriber(app.url, ann.token).closed()).toBe(4403);
    await live.close();
  });

  it('rotateToken over the socket answers the new token on it, then closes that socket with 4403', async () => {
    const cy = await app.player('cy');
    const other = new Subscriber(app.url, cy.token).subscribe(S_TURNS, {}, (d) => d);
    await other.ready();
    const ws = new RawWs(app.url, { token: cy.token });
    await ws.ready();
    ws.subscribe('rotate', M_ROTATE);
    expect(await ws.closed()).toBe(4403);
    // The answer came before the close: without it the player would be left with no token at all.
    const answer = ws.of('rotate').find((m) => m.type === 'next') as { payload: { data: { rotateToken: { token: string } } } } | undefined;
    expect(answer?.payload.data.rotateToken.token).toMatch(/\S{20,}/);
    expect(await new GqlClient(app.url, answer!.payload.data.rotateToken.token).request(Q_ME)).toEqual({ me: { id: cy.id } });
    expect(await other.closed()).toBe(4403);
    expect(await cy.errorCode(Q_ME)).toBe('UNAUTHENTICATED');
    await other.close();
  });

  it('revokeToken over the socket answers true on it before closing it', async () => {
    const di = await app.player('di');
    const ws = new RawWs(app.url, { token: di.token });
    await ws.ready();
    ws.subscribe('revoke', M_REVOKE);
    expect(await ws.closed()).toBe(4403);
    expect(ws.of('revoke').find((m) => m.type === 'next')?.payload).toEqual({ data: { revokeToken: true } });
    expect(await di.errorCode(Q_ME)).toBe('UNAUTHENTICATED');
  });

  it('revokeToken leaves the player with no working token', async () => {
    const bob = await app.player('bob');
    expect(await bob.request(M_REVOKE)).toEqual({ revokeToken: true });
    expect(await bob.errorCode(Q_ME)).toBe('UNAUTHENTICATED');
    expect(await bob.errorCode(M_ROTATE)).toBe('UNAUTHENTICATED');
  });

  it('a token rotated on one instance stops working on another within the cache TTL, and its sockets there close', async () => {
    const cat = await app.player('cat');
    const onB = new GqlClient(b.url, cat.token);
    expect(await onB.request(Q_ME)).toEqual({ me: { id: cat.id } }); // B caches the token
    const socketOnB = new Subscriber(b.url, cat.token).subscribe(S_TURNS, {}, (d) => d);
    await socketOnB.ready();
    await cat.request(M_ROTATE); // on A
    // Within the cache TTL (asserted loosely).
    await eventually(
      async () => (await onB.raw(Q_ME)).status,
      (status) => status === 401,
      'the rotated token refused on B',
      20_000,
    );
    expect(await socketOnB.closed()).toBe(4403);
    await socketOnB.close();
  });

  it('needs a token', async () => {
    expect(await app.anon.errorCode(M_ROTATE)).toBe('UNAUTHENTICATED');
    expect(await app.anon.errorCode(M_REVOKE)).toBe('UNAUTHENTICATED');
  });
});
