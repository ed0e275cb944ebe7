import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { connect } from 'node:net';
import pg from 'pg';
import { startTestApp, type TestApp } from './support/app.js';
import type { GqlClient } from './support/gql.js';
import { RawWs } from './support/raw-ws.js';

const M_REGISTER = `mutation($name: String!) { registerPlayer(name: $name) { player { id name } } }`;
const M_CREATE = `mutation($input: CreateMatchInput!) { createMatch(input: $input) { id } }`;
const M_JOIN = `mutation($id: ID!) { joinMatch(matchId: $id) { id } }`;
const M_DRAW = `mutation($input: TurnInput!) { drawTile(input: $input) { id } }`;
const Q_MATCHES = `query($playerId: ID, $after: String, $from: DateTime, $to: DateTime) {
  matches(playerId: $playerId, after: $after, from: $from, to: $to) { totalCount } }`;
const Q_LEADERS = `query($after: String) { leaderboard(after: $after) { totalCount } }`;
const b64 = (s: string) => Buffer.from(s).toString('base64url');

/** The inputs that used to answer INTERNAL_SERVER_ERROR with a stack in the log: each is the client's mistake. */
describe('client mistakes are client errors', () => {
  let app: TestApp;
  let ann: GqlClient;
  let matchId: string;
  beforeAll(async () => {
    app = await startTestApp();
    ann = await app.player('ann');
    const bob = await app.player('bob');
    matchId = (await ann.request<{ createMatch: { id: string } }>(M_CREATE, { input: { seats: 2 } })).createMatch.id;
    await bob.request(M_JOIN, { id: matchId });
  });
  afterAll(() => app.close());

  it('a NUL byte or other control or invisible character in a name is BAD_USER_INPUT', async () => {
    // The last ones draw nothing, or break the line, though Unicode files some of them as letters or symbols.
    for (const name of [
      'Ann\u0000',
      '\u0000',
      'a\u0007b',
      'x\u202eevil',
      'zero\u200bwidth',
      '\ud800',
      '\u3164',
      '\u2800',
      '\u200d\u200d',
      'a\u2028b',
    ]) {
      expect(await app.anon.errorCode(M_REGISTER, { name })).toBe('BAD_USER_INPUT');
    }
  });

  it('names are trimmed and NFC-normalised, 1 to 40 characters (counted as code points), and need not be unique', async () => {
    const a = await app.anon.request<{ registerPlayer: { player: { name: string } } }>(M_REGISTER, { name: '  Zoe\u0301  ' });
    expect(a.registerPlayer.player.name).toBe('Zo\u00e9');
    const twin = await app.anon.request<{ registerPlayer: { player: { id: string; name: string } } }>(M_REGISTER, { name: 'Zoé' });
    expect(twin.registerPlayer.player.name).toBe('Zoé');
    expect(
      (await app.anon.request<{ registerPlayer: { player: { name: string } } }>(M_REGISTER, { name: '🀄'.repeat(40) })).registerPlayer.player.name,
    ).toBe('🀄'.repeat(40));
    expect(await app.anon.errorCode(M_REGISTER, { name: 'x'.repeat(41) })).toBe('BAD_USER_INPUT');
    expect(await app.anon.errorCode(M_REGISTER, { name: '   ' })).toBe('BAD_USER_INPUT');
    // Emoji sequences joined by ZWJ stay allowed.
    expect((await app.anon.request<{ registerPlayer: { player: { name: string } } }>(M_REGISTER, { name: '👩‍👩‍👧' })).registerPlayer.player.name).toBe(
      '👩‍👩‍👧',
    );
  });

  it('a NUL byte in a clientMoveId is BAD_USER_INPUT, and nothing is stored', async () => {
    const db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    const moves = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Move"`)).rows[0].n;
    const before = await moves();
    for (const clientMoveId of ['c\u0000', '\u0000', 'tab\there', 'x'.repeat(101), '']) {
      expect(await ann.errorCode(M_DRAW, { input: { matchId, clientMoveId } })).toBe('BAD_USER_INPUT');
    }
    expect(await moves()).toBe(before);
    await db.end();
  });

  it('a matches cursor whose id is not a UUID is BAD_USER_INPUT, with and without playerId', async () => {
    const after = b64('2026-01-01T00:00:00.000Z|not-a-uuid');
    expect(await app.anon.errorCode(Q_MATCHES, { after })).toBe('BAD_USER_INPUT');
    expect(await app.anon.errorCode(Q_MATCHES, { after, playerId: ann.id })).toBe('BAD_USER_INPUT');
    const yearZero = b64('0000-01-01T00:00:00.000Z|00000000-0000-4000-8000-000000000000');
    expect(await app.anon.errorCode(Q_MATCHES, { after: yearZero, playerId: ann.id })).toBe('BAD_USER_INPUT');
  });

  it('from or to outside 1970..9999 is BAD_USER_INPUT', async () => {
    expect(await app.anon.errorCode(Q_MATCHES, { from: '0000-01-01T00:00:00.000Z' })).toBe('BAD_USER_INPUT');
    expect(await app.anon.errorCode(Q_MATCHES, { from: '0000-01-01T00:00:00.000Z', playerId: ann.id })).toBe('BAD_USER_INPUT');
    expect(await app.anon.errorCode(Q_MATCHES, { to: '+275760-09-13T00:00:00.000Z' })).toBe('BAD_USER_INPUT');
    expect((await app.anon.request<{ matches: { totalCount: number } }>(Q_MATCHES, { from: '2020-01-01T00:00:00.000Z' })).matches.totalCount).toBe(1);
  });

  it('a leaderboard cursor with counts past 2^31 is BAD_USER_INPUT', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    expect(await app.anon.errorCode(Q_LEADERS, { after: b64(`${2 ** 31}|0|${id}`) })).toBe('BAD_USER_INPUT');
    expect(await app.anon.errorCode(Q_LEADERS, { after: b64(`0|${2 ** 40}|${id}`) })).toBe('BAD_USER_INPUT');
    expect(await app.anon.errorCode(Q_LEADERS, { after: b64(`-1|0|${id}`) })).toBe('BAD_USER_INPUT');
    expect(
      (await app.anon.request<{ leaderboard: { totalCount: number } }>(Q_LEADERS, { after: b64(`${2 ** 31 - 1}|0|${id}`) })).leaderboard.totalCount,
    ).toBe(0);
  });

  it('a from or to that is no ISO 8601 date (a time with its offset) is refused, as a literal (GRAPHQL_VALIDATION_FAILED) and as a variable (BAD_USER_INPUT)', async () => {
    // As literals they read as no value at all: the filter was dropped and everything matched. A
    // string that is no date was told it was out of range; one without an offset was read in the server's zone.
    for (const literal of ['-1', '{}', '1e400', 'true', '[]', '"nope"', '""', '"2026-13-45T00:00:00Z"', '"2026-12-01T10:00:00"'])
      expect(await app.anon.errorCode(`{ matches(from: ${literal}) { totalCount } }`)).toBe('GRAPHQL_VALIDATION_FAILED');
    for (const value of [true, 1, -1, {}, ['2020-01-01T00:00:00.000Z'], 'nope', '', '2026-12-01T10:00:00', '2026-02-30']) {
      const { body } = await app.anon.raw(Q_MATCHES, { to: value });
      expect(body.errors?.[0]).toMatchObject({
        message: expect.stringMatching(/DateTime must be an ISO 8601 date-time/),
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
    for (const to of ['1999-01-01T01:00:00+01:00', '1999-01-01T01:00+0100', '1999-01-01'])
      expect((await app.anon.request<{ matches: { totalCount: number } }>(Q_MATCHES, { to })).matches.totalCount).toBe(0);
    const none = await app.anon.request<{ matches: { totalCount: number } }>(`{ matches(to: "1999-01-01T00:00:00Z") { totalCount } }`);
    expect(none.matches.totalCount).toBe(0);
  });

  it('a webhook URL with a NUL, a control character or a space is BAD_USER_INPUT, also for an endpoint that is not there', async () => {
    const M_CREATE_WEBHOOK = `mutation($url: String!) { createWebhook(input: { url: $url, events: [TURN] }) { webhook { id } } }`;
    const M_UPDATE_WEBHOOK = `mutation($id: ID!, $url: String!) { updateWebhook(id: $id, input: { url: $url }) { id } }`;
    for (const url of [
      'https://example.com/a\u0000b',
      'https://example.com/?q=\u0000',
      'https://example.com/#\u0000',
      'https://example.com/a b',
      'https://example.com/\n',
    ]) {
      expect(await ann.errorCode(M_CREATE_WEBHOOK, { url })).toBe('BAD_USER_INPUT');
      expect(await ann.errorCode(M_UPDATE_WEBHOOK, { id: '00000000-0000-4000-8000-000000000000', url })).toBe('BAD_USER_INPUT');
    }
    expect((await ann.request<{ me: { webhooks: unknown[] } }>('{ me { webhooks { id } } }')).me.webhooks).toEqual([]);
  });
});

describe('documents graphql-js cannot validate or run, and requests Apollo cannot read: refused, never a server error', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const post = async (body: unknown) => {
    const res = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await res.json()) as { errors?: { message: string; extensions?: { code?: string } }[] };
    return { status: res.status, code: json.errors?.[0]?.extensions?.code, message: json.errors?.[0]?.message };
  };
  const conditioned = { status: 400, code: 'GRAPHQL_VALIDATION_FAILED', message: expect.stringMatching(/must not use `@skip` or `@include`/) };

  it('a subscription with @skip or @include on its root field, sent over HTTP: GRAPHQL_VALIDATION_FAILED (HTTP 400)', async () => {
    // graphql-js 16's own rule threw on the variable; Apollo answered HTTP 500.
    expect(await post({ query: 'subscription($s: Boolean!) { myTurns @skip(if: $s) { id } }', variables: { s: false } })).toEqual(conditioned);
    expect(
      await post({ query: 'query Q { __typename } subscription S($s: Boolean!) { myTurns @include(if: $s) { id } }', operationName: 'Q' }),
    ).toEqual(conditioned);
    expect(await post({ query: 'subscription { ...F } fragment F on Subscription { myTurns @ skip(if: true) { id } }' })).toEqual(conditioned);
    // On a field below the root they are allowed: only the transport refuses it.
    expect(await post({ query: 'subscription($s: Boolean!) { myTurns { id @skip(if: $s) } }', variables: { s: false } })).toMatchObject({
      status: 400,
      code: 'BAD_REQUEST',
    });
  });

  it('the same over graphql-ws: an error message for that operation, and the socket stays open', async () => {
    const ws = new RawWs(app.url);
    await ws.ready();
    const id = '00000000-0000-4000-8000-000000000000';
    const documents = [
      [`subscription { matchEvents(matchId: "${id}") @skip(if: true) { seq } }`, {}],
      ['subscription($s: Boolean!) { myTurns @include(if: $s) { id } }', { s: true }],
      [`subscription { ... on Subscription { matchEvents(matchId: "${id}") @include(if: false) { seq } } }`, {}],
      [`subscription($s: Boolean!) { ...F } fragment F on Subscription { matchEvents(matchId: "${id}") @skip(if: $s) { seq } }`, { s: false }],
    ] as const;
    documents.forEach(([query, variables], i) => ws.subscribe(`s${i}`, query, variables));
    await ws.until(() => documents.every((_, i) => ws.of(`s${i}`).length > 0));
    for (let i = 0; i < documents.length; i++)
      expect(ws.of(`s${i}`)).toEqual([
        {
          id: `s${i}`,
          type: 'error',
          payload: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED' }) })],
        },
      ]);
    ws.subscribe('q', '{ __typename }');
    await ws.until(() => ws.of('q').some((m) => m.type === 'complete'));
    expect(ws.closeCode).toBeNull();
    ws.terminate();
  });

  it("a message of the server's side of the protocol from a client: closed with 4400 (the protocol's code), not 4500", async () => {
    for (const type of ['connection_ack', 'next', 'error']) {
      const ws = new RawWs(app.url);
      await ws.ready();
      ws.send(type === 'connection_ack' ? { type } : { id: '1', type, payload: type === 'next' ? { data: {} } : [{ message: 'x' }] });
      expect(await ws.closed()).toBe(4400);
      expect(ws.closeReason).toBe(`Unexpected message of type ${type} received`);
    }
  });

  it('a client that goes away while its answers are written leaves no error in the log (EPIPE, a reset: the peer is gone)', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error');
    try {
      for (let i = 0; i < 40; i++) {
        const ws = new RawWs(app.url);
        await ws.ready();
        ws.subscribe('q', '{ __typename }');
        ws.terminate();
        await ws.closed();
      }
      await new Promise((r) => setTimeout(r, 300)); // the server's side of the last sockets closes
      expect(logged.mock.calls).toEqual([]);
    } finally {
      logged.mockRestore();
    }
  });

  it('a request without a Host header, or with one that names no host: BAD_REQUEST (HTTP 400)', async () => {
    const { port } = new URL(app.url);
    const body = JSON.stringify({ query: '{ __typename }' });
    for (const host of [null, '', 'exa mple', '[', ':80']) {
      const head = [
        `POST /graphql HTTP/${host === null ? '1.0' : '1.1'}`,
        'Content-Type: application/json',
        `Content-Length: ${body.length}`,
        'Connection: close',
      ];
      if (host !== null) head.push(`Host: ${host}`);
      const answer = await rawHttp(Number(port), `${head.join('\r\n')}\r\n\r\n${body}`);
      expect({ host, status: answer.status }).toEqual({ host, status: 400 });
      expect(JSON.parse(answer.body)).toEqual({ errors: [{ message: expect.stringMatching(/Host/), extensions: { code: 'BAD_REQUEST' } }] });
    }
    const preferring = await rawHttp(
      Number(port),
      `POST /graphql HTTP/1.0\r\nAccept: application/graphql-response+json\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect({ status: preferring.status, type: preferring.type }).toEqual({ status: 400, type: 'application/graphql-response+json; charset=utf-8' });
    expect((await post({ query: '{ __typename }' })).status).toBe(200);
  });

  it('the same however the path is spelled: the router decodes /gr%61phql to /graphql, and so do the checks', async () => {
    const res = await fetch(`${app.url}/gr%61phql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'subscription($s: Boolean!) { myTurns @skip(if: $s) { id } }', variables: { s: false } }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const { port } = new URL(app.url);
    const body = JSON.stringify({ query: '{ __typename }' });
    const answer = await rawHttp(
      Number(port),
      `POST /%67raphql HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(answer.status).toBe(400);
  });
});

/** One HTTP exchange written by hand (fetch always sends a Host header): the status and the body. */
function rawHttp(port: number, request: string): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let response = '';
    socket.on('data', (chunk: Buffer) => (response += chunk.toString()));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head, ...rest] = response.split('\r\n\r\n');
      const type = /^content-type: (.*)$/im.exec(head)?.[1];
      resolve({ status: Number(head.split(' ')[1]), type, body: rest.join('\r\n\r\n') });
    });
  });
}
