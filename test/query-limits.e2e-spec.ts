import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { PrismaService } from '../src/database/prisma.service.js';
import { MatchesRepository } from '../src/matches/matches.repository.js';
import { startTestApp, type TestApp } from './support/app.js';
import { MATCH_FIELDS, ROUND_FIELDS } from './support/fragments.js';
import type { GqlClient, GqlErrorShape } from './support/gql.js';
import { RawWs } from './support/raw-ws.js';
import { viewOf, waitForHuman } from './support/driver.js';

/**
 * Query limits (src/limits): the same refusals over HTTP and graphql-ws, each naming its limit
 * and value, before any resolver runs (no SQL statement is sent for a refused request).
 */
const ALIASES_2000 = `query($id: ID!) { ${Array.from({ length: 2000 }, (_, i) => `a${i}: match(id: $id) { rounds { moves { seq } } }`).join(' ')} }`;
// Over graphql-ws a message may hold 64 KiB (WS_MAX_PAYLOAD_BYTES): 400 aliases, still far past the token limit.
const ALIASES_400 = ALIASES_2000.split(' a400:')[0] + ' }';
const PAGES_1000 = `query { ${Array.from({ length: 1000 }, (_, i) => `p${i}: matches(first: 100) { edges { node { id } } }`).join(' ')} }`;
const ALIASES_40 = `query { ${Array.from({ length: 40 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
const COSTLY = `query { matches(first: 100) { edges { node { ${MATCH_FIELDS} } } } } ${ROUND_FIELDS}`;

describe('query limits', () => {
  let app: TestApp;
  let matchId: string;

  beforeAll(async () => {
    app = await startTestApp({ METRICS: 'true', METRICS_TOKEN: 'metrics-token-for-the-tests' });
    const p = await app.player();
    matchId = (await p.request<{ createMatch: { id: string } }>('mutation { createMatch(input: { seats: 2 }) { id } }')).createMatch.id;
  });
  afterAll(() => app.close());

  const statements = () => app.server.app.get(PrismaService).statements;

  /** The first error of a request that must be refused, and proof that it reached no resolver. */
  async function refused(query: string, variables: Record<string, unknown> = {}): Promise<GqlErrorShape & { status: number }> {
    const before = statements();
    const { status, body } = await app.anon.raw(query, variables);
    expect(body.errors?.length).toBeGreaterThan(0);
    expect(body.data ?? null).toBeNull();
    expect(statements()).toBe(before);
    return { ...body.errors![0], status };
  }

  it('refuses 2,000 aliases of match { rounds { moves } } as too many tokens (HTTP 400)', async () => {
    const e = await refused(ALIASES_2000, { id: matchId });
    expect(e.status).toBe(400);
    expect(e.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(e.message).toBe('Query has more than 2000 tokens (GRAPHQL_MAX_TOKENS)');
  });

  it('refuses 1,000 aliases of matches(first: 100)', async () => {
    const e = await refused(PAGES_1000);
    expect(e.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(e.message).toMatch(/GRAPHQL_MAX_TOKENS/);
  });

  it('refuses more aliases than GRAPHQL_MAX_ALIASES', async () => {
    const e = await refused(ALIASES_40);
    expect(e.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'GRAPHQL_MAX_ALIASES', max: 30 });
    expect(e.message).toBe('Aliases limit of 30 exceeded, found 40 (GRAPHQL_MAX_ALIASES)');
  });

  it('refuses a query whose estimated cost is over GRAPHQL_MAX_COST, weighing pages by first', async () => {
    const e = await refused(COSTLY);
    expect(e.status).toBe(400);
    expect(e.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'GRAPHQL_MAX_COST', max: 150_000 });
    expect(e.message).toMatch(/^Query cost \d+ exceeds the limit of 150000 \(GRAPHQL_MAX_COST\)$/);
    // The same selection on a page of 10 costs a tenth: it runs.
    const ok = await app.anon.raw(COSTLY.replace('first: 100', 'first: 10'));
    expect(ok.body.errors).toBeUndefined();
  });

  it('refuses more totalCount fields than GRAPHQL_MAX_COUNTS: each reads every row that passes its filters', async () => {
    const counts = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `c${i}: matches(first: 1, status: FINISHED) { totalCount }`).join(' ')} }`;
    const e = await refused(counts(4));
    expect(e.status).toBe(400);
    expect(e.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'GRAPHQL_MAX_COUNTS', max: 3, counts: 4 });
    expect(e.message).toBe('Query makes 4 counts (totalCount fields, leaderboard pages), more than 3 (GRAPHQL_MAX_COUNTS)');
    const ok = await app.anon.raw(counts(3));
    expect(ok.body.errors).toBeUndefined();
  });

  it('takes first from the variables when it is one', async () => {
    const q = `query($n: Int) { matches(first: $n) { edges { node { ${MATCH_FIELDS} } } } } ${ROUND_FIELDS}`;
    expect((await refused(q, { n: 100 })).extensions?.limit).toBe('GRAPHQL_MAX_COST');
    expect((await app.anon.raw(q, { n: 5 })).body.errors).toBeUndefined();
  });

  it.each([
    ['matches', 0],
    ['matches', 101],
    ['leaderboard', -1],
    ['leaderboard', 1000],
  ])('refuses %s(first: %d) as BAD_USER_INPUT before any resolver runs', async (field, first) => {
    const node = field === 'matches' ? 'id' : 'rank';
    const both = `query($f: Int) { a: ${field}(first: $f) { edges { node { ${node} } } } b: me { id } }`;
    const e = await refused(both, { f: first });
    expect(e.extensions?.code).toBe('BAD_USER_INPUT');
    expect(e.message).toBe(`first must be 1 to 100 (got ${first})`);
  });

  it('refuses variables too many or too deep to coerce before coercing any (HTTP and graphql-ws), and names only the first bad one', async () => {
    const PLAY = 'mutation($i: PlayTileInput!) { playTile(input: $i) { id } }';
    const unknownKeys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, k) => [`k${k}`, 1]));
    // 40,000 unknown fields: graphql-js would report each, quoting the whole object, for minutes.
    const wide = await refused(PLAY, { i: unknownKeys(40_000) });
    expect(wide.extensions).toEqual({ code: 'BAD_USER_INPUT', limit: 'variables.values', max: 1000 });
    // A list nested 20,000 deep (written out by hand: JSON.stringify recurses): graphql-js would recurse too.
    const query = 'mutation($w: CreateWebhookInput!) { createWebhook(input: $w) { secret } }';
    const deep = `${'['.repeat(20_000)}"TURN"${']'.repeat(20_000)}`;
    const before = statements();
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"query":${JSON.stringify(query)},"variables":{"w":{"url":"https://example.com/x","events":${deep}}}}`,
    });
    const nested = ((await res.json()) as { errors: GqlErrorShape[] }).errors[0];
    expect(nested.extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'variables.depth', max: 10 });
    expect(statements()).toBe(before);
    // Within the bounds, the first value that does not fit its type is named, and only that one.
    const few = await refused(PLAY, { i: { matchId, tile: { high: 1, low: 1 }, ...unknownKeys(500) } });
    expect(few.extensions?.code).toBe('BAD_USER_INPUT');
    expect(few.message).toMatch(/Field "k0" is not defined by type "PlayTileInput"/);
    expect(few.message).not.toMatch(/"k1" is not defined/);

    const ws = new RawWs(app.url);
    await ws.ready();
    ws.subscribe('wide', PLAY, { i: unknownKeys(5_000) }); // 54 KB: within a message's 64 KiB
    await ws.until(() => ws.of('wide').length > 0);
    const [m] = ws.of('wide');
    expect(m.type).toBe('error');
    expect((m.payload as GqlErrorShape[])[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'variables.values' });
    ws.terminate();
  });

  it('applies the same rules to graphql-ws subscribe messages, queries included', async () => {
    // Fine as one query (~45,000), but a subscription answers it again for every event (×10).
    const everyRound = Array.from({ length: 30 }, (_, i) => `r${i}: rounds { moves { seq seat type tile { high low } end points count } }`).join(' ');
    expect((await app.anon.raw(`query($id: ID!) { match(id: $id) { ${everyRound} } }`, { id: matchId })).body.errors).toBeUndefined();
    const ws = new RawWs(app.url);
    await ws.ready();
    const before = statements();
    ws.subscribe('tokens', ALIASES_400, { id: matchId });
    ws.subscribe(
      'aliases',
      `subscription($id: ID!) { matchEvents(matchId: $id) { match { ${Array.from({ length: 31 }, (_, i) => `v${i}: version`).join(' ')} } } }`,
      {
        id: matchId,
      },
    );
    ws.subscribe('cost', COSTLY);
    ws.subscribe('first', 'query { matches(first: 101) { totalCount } }');
    ws.subscribe('events', `subscription($id: ID!) { matchEvents(matchId: $id, afterSeq: 0) { seq match { ${everyRound} } } }`, { id: matchId });
    await ws.until(() => ['tokens', 'aliases', 'cost', 'first', 'events'].every((id) => ws.of(id).length > 0));
    const err = (id: string) => {
      const [m] = ws.of(id);
      expect(m.type).toBe('error');
      return (m.payload as GqlErrorShape[])[0];
    };
    expect(err('tokens')).toMatchObject({
      message: 'Query has more than 2000 tokens (GRAPHQL_MAX_TOKENS)',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    expect(err('aliases')).toMatchObject({
      message: 'Aliases limit of 30 exceeded, found 31 (GRAPHQL_MAX_ALIASES)',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    expect(err('cost').extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'GRAPHQL_MAX_COST' });
    expect(err('first')).toMatchObject({ message: 'first must be 1 to 100 (got 101)', extensions: { code: 'BAD_USER_INPUT' } });
    expect(err('events').extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'GRAPHQL_MAX_COST' });
    expect(statements()).toBe(before);
    // The socket stays usable: a refusal ends one operation, not the connection.
    ws.subscribe('ok', '{ __typename }');
    await ws.until(() => ws.of('ok').some((m) => m.type === 'complete'));
    expect(ws.closeCode).toBeNull();
    ws.terminate();
  });
});

describe('query limits are configuration', () => {
  let app: TestApp;
  beforeAll(async () => (app = await startTestApp({ GRAPHQL_MAX_DEPTH: '3', GRAPHQL_MAX_COST: '50', GRAPHQL_MAX_TOKENS: '100' })));
  afterAll(() => app.close());

  it('refuses a query deeper than GRAPHQL_MAX_DEPTH, on HTTP and graphql-ws', async () => {
    const deep = 'query { leaderboard { edges { node { player { name } } } } }';
    const { body } = await app.anon.raw(deep);
    expect(body.errors![0]).toMatchObject({ extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'GRAPHQL_MAX_DEPTH', max: 3 } });
    expect(body.errors![0].message).toMatch(/^Query depth limit of 3 exceeded, found \d+ \(GRAPHQL_MAX_DEPTH\)$/);
    const ws = new RawWs(app.url);
    await ws.ready();
    ws.subscribe('deep', deep);
    await ws.until(() => ws.of('deep').length > 0);
    expect((ws.of('deep')[0].payload as GqlErrorShape[])[0].message).toBe(body.errors![0].message);
    ws.terminate();
  });

  it('uses GRAPHQL_MAX_COST and GRAPHQL_MAX_TOKENS as set', async () => {
    const { body } = await app.anon.raw('query { matches(first: 60) { totalCount } }');
    expect(body.errors![0].message).toMatch(/exceeds the limit of 50 \(GRAPHQL_MAX_COST\)/);
    const tokens = await app.anon.raw(`query { ${'__typename '.repeat(120)}}`);
    expect(tokens.body.errors![0].message).toBe('Query has more than 100 tokens (GRAPHQL_MAX_TOKENS)');
  });
});

/** A match of a player against a bot, two-tile hands: played until its first two rounds are over. */
async function twoRoundsAgainstABot(app: TestApp): Promise<{ p: GqlClient; id: string }> {
  const p = await app.player('long-match');
  const rules = { handSize: 2, targetScore: 10000 };
  const { createMatch } = await p.request<{ createMatch: { id: string } }>(
    'mutation($input: CreateMatchInput!) { createMatch(input: $input) { id } }',
    {
      input: { seats: 2, bots: 1, rules },
    },
  );
  const id = createMatch.id;
  // Two-tile hands against a bot: rounds end within a few moves. Play until two are over.
  for (let i = 0; i < 400; i++) {
    await waitForHuman(p, id);
    const me = await viewOf(p, id);
    if (me.currentRound!.number > 2) break;
    if (me.legalMoves.length > 0)
      await p.request('mutation($i: PlayTileInput!) { playTile(input: $i) { id } }', {
        i: { matchId: id, tile: me.legalMoves[0].tile, end: me.legalMoves[0].end, expectedVersion: me.version },
      });
    else await p.request('mutation($i: TurnInput!) { drawTile(input: $i) { id } }', { i: { matchId: id, expectedVersion: me.version } });
  }
  return { p, id };
}

describe('rounds read are counted as they are read (GRAPHQL_MAX_ROUNDS)', () => {
  let app: TestApp;
  beforeAll(async () => (app = await startTestApp({ GRAPHQL_MAX_ROUNDS: '3' })));
  afterAll(() => app.close());

  it('answers the aliases of a match up to the limit and refuses the rest, counting each finished round once', async () => {
    const { p, id } = await twoRoundsAgainstABot(app);
    const finished = (await viewOf(p, id)).currentRound!.number - 1;
    const logged = jest.spyOn(Logger.prototype, 'error');
    // Every seat has a turn in a round of 2-tile hands: the loop stops with round 3 just begun.
    expect(finished).toBe(2);
    // One alias reads its 2 finished rounds: within the 3 allowed.
    const one = await app.anon.raw('query($id: ID!) { match(id: $id) { rounds { number } } }', { id });
    expect(one.body).toEqual({ data: { match: { rounds: Array.from({ length: finished + 1 }, (_, i) => ({ number: i + 1 })) } } });
    // Two aliases of it read twice as many: the second is refused before its rounds are read.
    const reads = jest.spyOn(app.server.app.get(MatchesRepository), 'finishedRoundsOf');
    const two = await app.anon.raw('query($id: ID!) { a: match(id: $id) { rounds { number } } b: match(id: $id) { rounds { number } } }', { id });
    expect(two.body.errors?.[0]).toMatchObject({
      message: 'Query reads more than 3 rounds (GRAPHQL_MAX_ROUNDS): ask for fewer matches at once',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'GRAPHQL_MAX_ROUNDS', max: 3 },
    });
    expect(reads.mock.calls.flatMap(([ids]) => ids)).toEqual([id]);
    reads.mockRestore();
    // A refusal is the client's answer, not a server failure: nothing logged.
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
    // match(id) may be null: the refused alias answers null, the other stands.
    const data = two.body.data as { a: unknown; b: unknown };
    expect([data.a, data.b].filter((m) => m === null)).toHaveLength(1);
    // A page's matches may not be null: the refusal nulls the whole answer.
    const pages = await app.anon.raw(
      'query($p: ID!) { a: matches(playerId: $p) { edges { node { rounds { number } } } } b: matches(playerId: $p) { edges { node { rounds { number } } } } }',
      { p: p.id },
    );
    expect(pages.body.data).toBeNull();
    expect(pages.body.errors?.[0]?.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'GRAPHQL_MAX_ROUNDS' });
    // A subscription's events are counted per view of the match and document as they resolve
    // the rounds: a catch-up, whose events all show the match as it is now, resolves at most
    // 3 × 10 rounds (GRAPHQL_MAX_ROUNDS times the ten events a subscription is costed for).
    type Message = ReturnType<RawWs['of']>[number];
    const answered = (m: Message) => m.type === 'next' && (m.payload as { errors?: unknown }).errors === undefined;
    const ws = new RawWs(app.url);
    try {
      await ws.ready();
      ws.subscribe('s', 'subscription($id: ID!) { matchEvents(matchId: $id, afterSeq: 0) { seq match { rounds { number } } } }', { id });
      await ws.until(() => ws.of('s').some((m) => !answered(m)));
      // 3 rounds an event (2 finished, the third begun): 10 events are answered, the 11th refused.
      const caughtUp = ws.of('s');
      expect(caughtUp.findIndex((m) => !answered(m))).toBe(10);
      expect((caughtUp[10].payload as { errors: GqlErrorShape[] }).errors[0].extensions).toMatchObject({
        code: 'GRAPHQL_VALIDATION_FAILED',
        limit: 'GRAPHQL_MAX_ROUNDS',
      });
      // The catch-up is over: a message for every event so far (answered or refused).
      const { lastEventSeq } = await app.server.app.get(PrismaService).match.findUniqueOrThrow({ where: { id } });
      await ws.until(() => ws.of('s').length >= lastEventSeq);
      const before = ws.of('s').length;
      // Two more commands of the player (and the bot's replies): each commit is a new view of the
      // match, whose events are answered again.
      for (let i = 0; i < 2; i++) {
        await waitForHuman(p, id);
        const me = await viewOf(p, id);
        if (me.legalMoves.length > 0)
          await p.request('mutation($i: PlayTileInput!) { playTile(input: $i) { id } }', {
            i: { matchId: id, tile: me.legalMoves[0].tile, end: me.legalMoves[0].end, expectedVersion: me.version },
          });
        else await p.request('mutation($i: TurnInput!) { drawTile(input: $i) { id } }', { i: { matchId: id, expectedVersion: me.version } });
      }
      await waitForHuman(p, id);
      await ws.until(() => ws.of('s').length >= before + 2);
      await new Promise((r) => setTimeout(r, 300));
      expect(ws.of('s').slice(before).map(answered)).not.toContain(false);
    } finally {
      ws.terminate();
    }
  });
});

describe('rounds a catch-up resolves, over many pages (GRAPHQL_MAX_ROUNDS, WS_SUBSCRIPTION_QUEUE)', () => {
  let app: TestApp;
  // A queue of 10 reads a catch-up 5 events a page; with no match cache each page reads the match
  // again (as a long catch-up outlives a cached entry).
  beforeAll(async () => (app = await startTestApp({ GRAPHQL_MAX_ROUNDS: '3', WS_SUBSCRIPTION_QUEUE: '10', MATCH_CACHE_TTL_MS: '0' })));
  afterAll(() => app.close());

  it('counts the rounds of every page of a match that stands still against one budget, not one per page', async () => {
    const { id } = await twoRoundsAgainstABot(app);
    await waitForHuman(app.anon, id);
    type Message = ReturnType<RawWs['of']>[number];
    const answered = (m: Message) => m.type === 'next' && (m.payload as { errors?: unknown }).errors === undefined;
    const ws = new RawWs(app.url);
    try {
      await ws.ready();
      ws.subscribe('s', 'subscription($id: ID!) { matchEvents(matchId: $id, afterSeq: 0) { seq match { rounds { number } } } }', { id });
      await ws.until(() => ws.of('s').some((m) => !answered(m)));
      // 3 rounds an event, 30 in all: the 11th event is refused, though it is on the third page.
      expect(ws.of('s').findIndex((m) => !answered(m))).toBe(10);
    } finally {
      ws.terminate();
    }
  });

  it("counts the rounds of every document of an address's subscriptions against one budget a minute", async () => {
    const { id } = await twoRoundsAgainstABot(app);
    await waitForHuman(app.anon, id);
    type Message = ReturnType<RawWs['of']>[number];
    const answered = (m: Message) => m.type === 'next' && (m.payload as { errors?: unknown }).errors === undefined;
    // A fresh address: three views' worth a minute (3 × 30 rounds), each document 30 of them.
    const ws = new RawWs(app.url, { localAddress: '127.0.0.3' });
    try {
      await ws.ready();
      // Four documents (an alias each), so four budgets per view: the address's budget binds first.
      for (const d of [1, 2, 3, 4]) {
        ws.subscribe(`d${d}`, `subscription($id: ID!) { m${d}: matchEvents(matchId: $id, afterSeq: 0) { seq match { rounds { number } } } }`, { id });
        await ws.until(() => ws.of(`d${d}`).some((m) => !answered(m)));
      }
      expect([1, 2, 3, 4].map((d) => ws.of(`d${d}`).findIndex((m) => !answered(m)))).toEqual([10, 10, 10, 0]);
      const refusal = (ws.of('d4')[0].payload as { errors: GqlErrorShape[] }).errors[0];
      expect(refusal).toMatchObject({
        message:
          'Subscriptions from this address resolved more than 90 rounds this minute (GRAPHQL_MAX_ROUNDS): read Match.rounds with a query, not in every event of a catch-up',
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'GRAPHQL_MAX_ROUNDS', max: 90 },
      });
    } finally {
      ws.terminate();
    }
  });
});
