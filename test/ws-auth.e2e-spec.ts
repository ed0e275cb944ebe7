import { jest } from '@jest/globals';
import WebSocket from 'ws';
import { MatchesRepository } from '../src/matches/matches.repository.js';
import { MatchesService } from '../src/matches/matches.service.js';
import { startTestApp, type TestApp } from './support/app.js';
import { M_CREATE, type MatchT } from './support/fragments.js';
import type { GqlClient } from './support/gql.js';

/**
 * The graphql-ws handshake as a client in any language sees it, message by message: where the
 * token may be put, and what the server says when it is wrong.
 */
type Outcome = { closed: { code: number; reason: string } } | { messages: Record<string, unknown>[] };

async function session(
  app: TestApp,
  opts: {
    params?: Record<string, unknown>;
    headers?: Record<string, string>;
    protocol?: string | null;
    subscribe?: { query: string; variables?: Record<string, unknown>; operationName?: string };
  },
): Promise<Outcome> {
  const url = app.url.replace(/^http/, 'ws') + '/graphql';
  const protocol = opts.protocol === undefined ? 'graphql-transport-ws' : opts.protocol;
  const ws = protocol === null ? new WebSocket(url, { headers: opts.headers }) : new WebSocket(url, protocol, { headers: opts.headers });
  const messages: Record<string, unknown>[] = [];
  return new Promise<Outcome>((resolve, reject) => {
    ws.on('error', reject);
    ws.on('close', (code, reason) => resolve({ closed: { code, reason: reason.toString() } }));
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: opts.params })));
    ws.on('message', (data) => {
      const msg = JSON.parse((data as Buffer).toString()) as Record<string, unknown>;
      messages.push(msg);
      if (msg.type === 'connection_ack') {
        if (opts.subscribe) ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: opts.subscribe }));
        else ws.close(1000);
      }
      // The first answer to the subscription (data or error) is all these cases need.
      if (msg.type === 'next' || msg.type === 'error') {
        ws.removeAllListeners('close');
        ws.close(1000);
        resolve({ messages });
      }
    });
  });
}

const ME_IN_MATCH = 'subscription($id: ID!) { matchEvents(matchId: $id, afterSeq: 0) { seq match { mySeat } } }';

describe('graphql-ws authentication', () => {
  let app: TestApp;
  let ann: GqlClient;
  let matchId: string;
  beforeAll(async () => {
    app = await startTestApp();
    ann = await app.player('ann');
    matchId = (await ann.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } })).createMatch.id;
  });
  afterAll(async () => {
    await app.close();
  });

  /** The seat the socket's player sees as theirs: 0 for ann, null for an anonymous socket. */
  async function seatSeenWith(opts: Parameters<typeof session>[1]): Promise<unknown> {
    const out = await session(app, { ...opts, subscribe: { query: ME_IN_MATCH, variables: { id: matchId } } });
    if ('closed' in out) throw new Error(`closed ${out.closed.code} ${out.closed.reason}`);
    const next = out.messages.find((m) => m.type === 'next') as { payload: { data: { matchEvents: { match: { mySeat: unknown } } } } };
    return next.payload.data.matchEvents.match.mySeat;
  }

  it.each([
    ['connection params { authorization }', () => ({ params: { authorization: `Bearer ${ann.token}` } })],
    ['connection params { Authorization }', () => ({ params: { Authorization: `Bearer ${ann.token}` } })],
    ['connection params { AUTHORIZATION }', () => ({ params: { AUTHORIZATION: `Bearer ${ann.token}` } })],
    ['an Authorization header on the upgrade request', () => ({ headers: { Authorization: `Bearer ${ann.token}` } })],
  ])('accepts the token in %s', async (_name, opts) => {
    expect(await seatSeenWith(opts())).toBe(0);
  });

  it('connects anonymously with no token anywhere', async () => {
    expect(await seatSeenWith({ params: {} })).toBeNull();
    expect(await seatSeenWith({})).toBeNull();
  });

  it.each([
    ['a bare token in the params', () => ({ params: { authorization: ann.token } }), 'Authorization must be "Bearer <token>"'],
    ['a bare token in the header', () => ({ headers: { authorization: ann.token! } }), 'Authorization must be "Bearer <token>"'],
    ['a token that is not a string', () => ({ params: { Authorization: 42 } }), 'Authorization must be "Bearer <token>"'],
    ['an unknown token', () => ({ params: { authorization: 'Bearer not-a-token' } }), 'unknown or revoked token'],
  ])('closes with 4403 and says what is wrong for %s', async (_name, opts, reason) => {
    expect(await session(app, opts())).toEqual({ closed: { code: 4403, reason } });
  });

  it('an anonymous socket subscribing to myTurns is told to send the token in the connection params', async () => {
    const out = await session(app, { params: {}, subscribe: { query: 'subscription { myTurns { id } }' } });
    if ('closed' in out) throw new Error(`closed ${out.closed.code}`);
    const error = out.messages.find((m) => m.type === 'error' || m.type === 'next') as { payload: unknown };
    const errors = (Array.isArray(error.payload) ? error.payload : (error.payload as { errors: unknown[] }).errors) as {
      message: string;
      extensions: { code: string };
    }[];
    expect(errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(errors[0].message).toContain('connection params { "authorization": "Bearer <token>" }');
  });

  it('selects no subprotocol for the legacy graphql-ws, and closes a socket without graphql-transport-ws with 4406', async () => {
    // A client that checks the answer (as ws and browsers do) fails the handshake at once.
    await expect(session(app, { protocol: 'graphql-ws' })).rejects.toThrow('Server sent no subprotocol');
    // One that goes on regardless is closed with 4406.
    expect(await session(app, { protocol: null })).toEqual({ closed: { code: 4406, reason: 'Subprotocol not acceptable' } });
  });
});

describe('graphql-ws errors: one shape and one mask, as on HTTP', () => {
  let app: TestApp;
  let ann: GqlClient;
  let matchId: string;
  beforeAll(async () => {
    app = await startTestApp();
    ann = await app.player('errors-ann');
    matchId = (await ann.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } })).createMatch.id;
  });
  afterAll(async () => {
    await app.close();
  });
  const bearer = () => ({ params: { authorization: `Bearer ${ann.token}` } });
  /** The first answer to the subscribe message: its type and errors. */
  async function answer(opts: Parameters<typeof session>[1]) {
    const out = await session(app, opts);
    if ('closed' in out) throw new Error(`closed ${out.closed.code}`);
    const last = out.messages.find((m) => m.type === 'next' || m.type === 'error') as { type: string; payload: unknown };
    const errors = (Array.isArray(last.payload) ? last.payload : ((last.payload as { errors?: unknown[] }).errors ?? [])) as {
      message: string;
      extensions?: { code?: string };
    }[];
    return { type: last.type, errors: errors.map((e) => ({ message: e.message, code: e.extensions?.code })) };
  }

  it.each([
    ['myTurns on an anonymous socket', { params: {}, subscribe: { query: 'subscription { myTurns { id } }' } }, 'UNAUTHENTICATED'],
    [
      'matchEvents of no match',
      { params: {}, subscribe: { query: 'subscription { matchEvents(matchId: "00000000-0000-4000-8000-000000000000") { seq } }' } },
      'NOT_FOUND',
    ],
    [
      'matchEvents with a variable of the wrong type',
      { params: {}, subscribe: { query: 'subscription($a: Int) { matchEvents(matchId: "x", afterSeq: $a) { seq } }', variables: { a: 'nope' } } },
      'BAD_USER_INPUT',
    ],
    [
      'an operationName the document does not hold',
      { params: {}, subscribe: { query: 'query A { __typename }', operationName: 'B' } },
      'OPERATION_RESOLUTION_FAILURE',
    ],
    [
      'a document of two operations with no operationName',
      { params: {}, subscribe: { query: 'query A { __typename } query B { __typename }' } },
      'OPERATION_RESOLUTION_FAILURE',
    ],
  ])('refuses %s with one error message (no next, no complete)', async (_name, opts, code) => {
    const { type, errors } = await answer(opts);
    expect({ type, codes: errors.map((e) => e.code) }).toEqual({ type: 'error', codes: [code] });
  });

  it('masks a feed that fails as INTERNAL_SERVER_ERROR, without its details', async () => {
    const repo = app.server.app.get(MatchesRepository);
    const failing = jest.spyOn(repo, 'eventsAfter').mockRejectedValueOnce(new Error('connection to 10.1.2.3:5432 refused (pool secret)'));
    try {
      const query = 'subscription($id: ID!) { matchEvents(matchId: $id, afterSeq: 0) { seq } }';
      const { type, errors } = await answer({ ...bearer(), subscribe: { query, variables: { id: matchId } } });
      expect(failing).toHaveBeenCalled();
      expect({ type, errors }).toEqual({ type: 'error', errors: [{ message: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' }] });
    } finally {
      failing.mockRestore();
    }
  });

  it('masks an unexpected failure of a query sent over the socket', async () => {
    const failing = jest.spyOn(app.server.app.get(MatchesService), 'get').mockRejectedValueOnce(new Error('relation "Match" is locked (secret)'));
    try {
      const { type, errors } = await answer({
        ...bearer(),
        subscribe: { query: 'query($id: ID!) { match(id: $id) { id } }', variables: { id: matchId } },
      });
      expect(failing).toHaveBeenCalled();
      expect({ type, errors }).toEqual({ type: 'next', errors: [{ message: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' }] });
    } finally {
      failing.mockRestore();
    }
  });
});
