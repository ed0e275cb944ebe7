import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_ERROR_CODES } from '../src/common/api-error.js';
import { GRAPHQL_REQUEST_ERROR_CODES, INTERNAL_ERROR_CODE } from '../src/graphql/format-error.js';
import { VIOLATION_CODES } from '../src/domain/index.js';
import { COMMAND_REASONS } from '../src/matches/decide-turn.js';
import { startTestApp, type TestApp } from './support/app.js';
import { lcg, viewOf } from './support/driver.js';
import { M_CREATE, M_JOIN, type MatchT, type TileT } from './support/fragments.js';
import type { GqlClient } from './support/gql.js';

/** docs/errors.md: its code headings and its reasons table. */
const catalogue = readFileSync(join(process.cwd(), 'docs/errors.md'), 'utf8');
const catalogued = {
  codes: [...catalogue.matchAll(/^### `([A-Z_]+)`$/gm)].map((m) => m[1]),
  reasons: [...catalogue.slice(catalogue.indexOf('## Reasons')).matchAll(/^\| `([A-Z_]+)` +\|/gm)].map((m) => m[1]),
};

/** What no request can provoke, and why (the catalogue says the same). */
const UNREACHABLE: Record<string, string> = {
  [INTERNAL_ERROR_CODE]: 'a bug on the server',
  PERSISTED_QUERY_NOT_SUPPORTED: 'persisted queries are on',
  ROUND_OVER: 'a new round is dealt in the command that ends one',
  MATCH_OVER: 'the service refuses a finished match first',
};

/** What only a race provokes, and the test that stages it. */
const RACES: Record<string, string> = {
  TURN_ENDED: "a move that lost its turn to the server's moves at a deadline: test/clocks.e2e-spec.ts",
};

const PLAY = 'mutation($i: PlayTileInput!) { playTile(input: $i) { version } }';
const DRAW = 'mutation($i: TurnInput!) { drawTile(input: $i) { version legalMoves { tile { high low } end } } }';

describe('the error catalogue', () => {
  it('lists exactly the codes and reasons the source can produce', () => {
    expect([...catalogued.codes].sort()).toEqual([...API_ERROR_CODES, ...GRAPHQL_REQUEST_ERROR_CODES, INTERNAL_ERROR_CODE].sort());
    expect([...catalogued.reasons].sort()).toEqual([...VIOLATION_CODES, ...COMMAND_REASONS].sort());
  });
});

describe('every catalogued code and reason, reached through the API', () => {
  let app: TestApp;
  const seen = { codes: new Set<string>(), reasons: new Set<string>() };
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  /** Sends a request that must fail with `code` (and `reason`), and remembers both. */
  async function refused(client: GqlClient, query: string, vars: Record<string, unknown>, code: string, reason?: string): Promise<void> {
    const { body } = await client.raw(query, vars);
    const error = body.errors?.[0];
    expect({ vars, code: error?.extensions?.code, reason: error?.extensions?.reason }).toEqual({ vars, code, reason });
    if (reason) expect(error!.message).toMatch(new RegExp(`\\(${String(error!.extensions!.rule)}\\)$`));
    seen.codes.add(code);
    if (reason) seen.reasons.add(reason);
  }

  async function post(body: unknown): Promise<string | undefined> {
    const res = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
    const code = json.errors?.[0]?.extensions?.code;
    if (code) seen.codes.add(code);
    return code;
  }

  async function match(
    rules: Record<string, unknown> = {},
  ): Promise<{ id: string; bySeat: Map<number, GqlClient>; mover: GqlClient; waiter: GqlClient }> {
    const a = await app.player('a');
    const b = await app.player('b');
    const { createMatch } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2, rules } });
    await b.request(M_JOIN, { id: createMatch.id });
    const bySeat = new Map([
      [0, a],
      [1, b],
    ]);
    const turn = (await viewOf(a, createMatch.id)).turn!;
    return { id: createMatch.id, bySeat, mover: bySeat.get(turn)!, waiter: bySeat.get(1 - turn)! };
  }

  it('the GraphQL layer: parse, validation, request shape, persisted queries, operation choice', async () => {
    expect(await post({ query: '{' })).toBe('GRAPHQL_PARSE_FAILED');
    expect(await post({ query: '{ nope }' })).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(await post({ variables: {} })).toBe('BAD_REQUEST');
    expect(await post({ extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } })).toBe('PERSISTED_QUERY_NOT_FOUND');
    // Refusals Apollo raises without a code of its own are the client's mistake too.
    expect(await post({ query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: 'abc' } } })).toBe('BAD_REQUEST');
    expect(await post({ query: '{ __typename }', extensions: { persistedQuery: { version: 2, sha256Hash: 'abc' } } })).toBe('BAD_REQUEST');
    expect(await post({ query: 'query A { __typename } query B { __typename }' })).toBe('OPERATION_RESOLUTION_FAILURE');
  });

  it('a subscription sent over HTTP: BAD_REQUEST (HTTP 400) naming the WebSocket endpoint, not a server error', async () => {
    const query = 'subscription($id: ID!) { matchEvents(matchId: $id) { seq } }';
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables: { id: '00000000-0000-4000-8000-000000000000' } }),
    });
    const body = (await res.json()) as { errors?: { message: string; extensions?: { code?: string } }[] };
    expect({ status: res.status, code: body.errors?.[0]?.extensions?.code }).toEqual({ status: 400, code: 'BAD_REQUEST' });
    expect(body.errors?.[0]?.message).toMatch(/WebSocket.*\/graphql/);
  });

  it('a body the HTTP layer refuses (malformed, empty, too large, not JSON): BAD_REQUEST with its HTTP status, as a GraphQL answer', async () => {
    const send = async (contentType: string, body: string) => {
      const res = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { 'content-type': contentType }, body });
      const json = (await res.json()) as { errors?: { message: string; extensions?: { code?: string } }[] };
      return { status: res.status, code: json.errors?.[0]?.extensions?.code, message: json.errors?.[0]?.message };
    };
    expect(await send('application/json', '{"query": "{ __typename }"')).toEqual({
      status: 400,
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/not valid JSON/),
    });
    expect(await send('application/json', '{"query": "{ __typename }", "variables": {"__proto__": {}}}')).toEqual({
      status: 400,
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/__proto__/),
    });
    expect(await send('application/json', '')).toEqual({ status: 400, code: 'BAD_REQUEST', message: expect.stringMatching(/empty/) });
    expect(await send('application/json', JSON.stringify({ query: `{ __typename } # ${'x'.repeat(1_100_000)}` }))).toEqual({
      status: 413,
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/too large/),
    });
    expect(await send('text/xml', '<query/>')).toEqual({ status: 415, code: 'BAD_REQUEST', message: expect.any(String) });
  });

  it("refusals made before GraphQL runs answer the media type the client prefers, as the endpoint's own errors do", async () => {
    const conditioned = JSON.stringify({ query: 'subscription($s: Boolean!) { myTurns @skip(if: $s) { id } }', variables: { s: false } });
    const answer = async (accept: string | null, body: string) => {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...(accept ? { accept } : {}) };
      const res = await fetch(`${app.url}/graphql`, { method: 'POST', headers, body });
      const json = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
      return { status: res.status, type: res.headers.get('content-type'), code: json.errors?.[0]?.extensions?.code };
    };
    const graphqlResponse = 'application/graphql-response+json; charset=utf-8';
    const json = 'application/json; charset=utf-8';
    for (const [accept, type] of [
      ['application/graphql-response+json', graphqlResponse],
      ['application/graphql-response+json, application/json;q=0.9', graphqlResponse],
      ['application/json', json],
      ['*/*', json],
      [null, json],
    ] as const) {
      // Apollo's own validation error, the body refused by the HTTP layer, the conditioned subscription refused early.
      expect(await answer(accept, JSON.stringify({ query: '{ nope }' }))).toEqual({ status: 400, type, code: 'GRAPHQL_VALIDATION_FAILED' });
      expect(await answer(accept, '{"query": ')).toEqual({ status: 400, type, code: 'BAD_REQUEST' });
      expect(await answer(accept, conditioned)).toEqual({ status: 400, type, code: 'GRAPHQL_VALIDATION_FAILED' });
    }
  });

  it('the service: who may do what, to which match, at which version', async () => {
    const { id, mover, waiter } = await match();
    const outsider = await app.player('outsider');
    const held = (await viewOf(mover, id)).myHand![0];
    const version = (await viewOf(mover, id)).version;
    await refused(app.anon, PLAY, { i: { matchId: id, tile: held } }, 'UNAUTHENTICATED');
    await refused(outsider, PLAY, { i: { matchId: id, tile: held } }, 'FORBIDDEN');
    await refused(mover, PLAY, { i: { matchId: '00000000-0000-4000-8000-000000000000', tile: held } }, 'NOT_FOUND');
    await refused(mover, PLAY, { i: { matchId: 'nope', tile: held } }, 'BAD_USER_INPUT');
    await refused(mover, PLAY, { i: { matchId: id, tile: held, expectedVersion: version - 1 } }, 'STALE_VERSION');
    await refused(outsider, 'mutation($id: ID!) { joinMatch(matchId: $id) { id } }', { id }, 'MATCH_FULL');
    await refused(mover, 'mutation($id: ID!) { rematch(matchId: $id) { id } }', { id }, 'MATCH_NOT_FINISHED');
    await waiter.request('mutation($id: ID!) { resignMatch(matchId: $id) { status } }', { id });
    await refused(mover, PLAY, { i: { matchId: id, tile: held } }, 'MATCH_NOT_IN_PROGRESS');
  });

  it('the engine at the lead: a tile that does not exist is said so even out of turn', async () => {
    const { id, mover, waiter } = await match();
    const held = (await viewOf(mover, id)).myHand![0];
    const notHeld = (await viewOf(waiter, id)).myHand![0];
    await refused(waiter, PLAY, { i: { matchId: id, tile: { high: 9, low: 9 } } }, 'BAD_USER_INPUT', 'INVALID_TILE');
    await refused(waiter, PLAY, { i: { matchId: id, tile: notHeld } }, 'NOT_YOUR_TURN', 'NOT_YOUR_TURN');
    await refused(mover, PLAY, { i: { matchId: id, tile: notHeld } }, 'ILLEGAL_MOVE', 'TILE_NOT_HELD');
    await refused(mover, PLAY, { i: { matchId: id, tile: held, end: 'LEFT' } }, 'ILLEGAL_MOVE', 'NO_SUCH_END');
    await refused(mover, DRAW, { i: { matchId: id } }, 'MUST_PLAY', 'MUST_PLAY');
  });

  it('the highest double must lead (R6), and an empty boneyard (R15)', async () => {
    let forced: { id: string; mover: GqlClient; other: TileT } | null = null;
    // A deal of 14 tiles without a double (about 1 in 350) leaves the lead free: deal again.
    for (let i = 0; i < 5 && !forced; i++) {
      const { id, mover } = await match({ leadRule: 'HIGHEST_DOUBLE' });
      const me = await viewOf(mover, id);
      const double = me.legalMoves.length === 1 ? me.legalMoves[0].tile : null;
      if (double && double.high === double.low)
        forced = { id, mover, other: me.myHand!.find((t) => t.high !== double.high || t.low !== double.low)! };
    }
    await refused(forced!.mover, PLAY, { i: { matchId: forced!.id, tile: forced!.other } }, 'MUST_PLAY', 'MUST_LEAD_HIGHEST_DOUBLE');
    await refused(forced!.mover, DRAW, { i: { matchId: forced!.id } }, 'MUST_PLAY', 'MUST_LEAD_HIGHEST_DOUBLE');
    // 2 × 7 dealt, the other 14 reserved: with voluntaryDraw a draw is allowed but nothing is left.
    const { id, mover } = await match({ voluntaryDraw: true, reserve: 14 });
    await refused(mover, DRAW, { i: { matchId: id } }, 'BONEYARD_EMPTY', 'BONEYARD_EMPTY');
  });

  it('the engine mid-round: a tile that fits nowhere, one that fits twice, the drawn tile owed', async () => {
    const wanted = ['TILE_DOES_NOT_MATCH', 'END_REQUIRED', 'MUST_PLAY_DRAWN_TILE'];
    const rnd = lcg(11);
    // Random matches until each position has come up (each is common: a few rounds suffice).
    for (let game = 0; game < 10 && wanted.some((r) => !seen.reasons.has(r)); game++) {
      const { id, bySeat } = await match({ targetScore: 150 });
      for (let guard = 0; guard < 500 && wanted.some((r) => !seen.reasons.has(r)); guard++) {
        const pub = await viewOf(bySeat.get(0)!, id);
        if (pub.status !== 'IN_PROGRESS') break;
        const client = bySeat.get(pub.turn!)!;
        const me = await viewOf(client, id);
        const ends = me.currentRound!.board.openEnds;
        const fitsAt = (t: TileT) => ends.filter((e) => e.pips === t.high || e.pips === t.low).length;
        if (ends.length > 0) {
          const nowhere = me.myHand!.find((t) => fitsAt(t) === 0);
          const twice = me.myHand!.find((t) => fitsAt(t) > 1);
          if (nowhere && !seen.reasons.has('TILE_DOES_NOT_MATCH'))
            await refused(client, PLAY, { i: { matchId: id, tile: nowhere } }, 'ILLEGAL_MOVE', 'TILE_DOES_NOT_MATCH');
          if (twice && !seen.reasons.has('END_REQUIRED'))
            await refused(client, PLAY, { i: { matchId: id, tile: twice } }, 'BAD_USER_INPUT', 'END_REQUIRED');
        }
        if (me.legalMoves.length > 0) {
          const mv = me.legalMoves[Math.floor(rnd() * me.legalMoves.length)];
          await client.request(PLAY, { i: { matchId: id, tile: mv.tile, end: mv.end } });
          continue;
        }
        const drawn = (await client.request<{ drawTile: Pick<MatchT, 'version' | 'legalMoves'> }>(DRAW, { i: { matchId: id } })).drawTile;
        // A playable drawn tile is owed at once (R15): drawing again is refused.
        if (drawn.legalMoves.length > 0) await refused(client, DRAW, { i: { matchId: id } }, 'MUST_PLAY', 'MUST_PLAY_DRAWN_TILE');
      }
    }
    expect(wanted.filter((r) => !seen.reasons.has(r))).toEqual([]);
  });

  it('the budgets: a registration past its rate limit, a WAITING match past the cap, a webhook past the cap', async () => {
    const tight = await startTestApp({ RATE_LIMIT_REGISTER: '1/60', MAX_WAITING_MATCHES: '1', WEBHOOK_MAX_PER_PLAYER: '1' });
    try {
      const p = await tight.player('budgeted'); // the address's one registration
      const again = await tight.anon.raw('mutation { registerPlayer(name: "again") { token } }', {});
      expect(again.body.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
      seen.codes.add('RATE_LIMITED');
      await p.request(M_CREATE, { input: { seats: 2 } });
      await refused(p, M_CREATE, { input: { seats: 2 } }, 'TOO_MANY_WAITING_MATCHES');
      const hook = { input: { url: 'https://hooks.example.com/dominoes', events: ['TURN'] } };
      const M_HOOK = 'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret } }';
      await p.request(M_HOOK, hook);
      await refused(p, M_HOOK, hook, 'TOO_MANY_WEBHOOKS');
    } finally {
      await tight.close();
    }
  });

  it('reached every catalogued code and reason but those no request can provoke', () => {
    expect(catalogued.codes.filter((c) => !seen.codes.has(c) && !UNREACHABLE[c])).toEqual([]);
    expect(catalogued.reasons.filter((r) => !seen.reasons.has(r) && !UNREACHABLE[r] && !RACES[r])).toEqual([]);
  });
});
