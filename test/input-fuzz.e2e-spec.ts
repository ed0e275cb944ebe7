import http from 'node:http';
import fc from 'fast-check';
import {
  getIntrospectionQuery,
  type IntrospectionField,
  type IntrospectionObjectType,
  type IntrospectionOutputTypeRef,
  type IntrospectionQuery,
  type IntrospectionSchema,
} from 'graphql';
import pg from 'pg';
import { startTestApp, type TestApp } from './support/app.js';
import type { GqlClient } from './support/gql.js';
import { typeText, valueFor, type FuzzFixtures } from './support/fuzz-values.js';

/**
 * Every argument of every query and mutation (and every argument of a nested field reachable
 * from a match, such as Round.boardAt), driven over real HTTP with arbitrary and hostile values.
 * Two properties: no answer is ever INTERNAL_SERVER_ERROR (nor an HTTP 500), and a refused
 * mutation leaves the database exactly as it was (a fingerprint of every table, taken before and
 * after). The schema is read by introspection, so a new field or argument is fuzzed without
 * touching this file. FUZZ_RUNS sets the number of cases (default 10,000), FUZZ_SEED replays a run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

interface Answer {
  status: number;
  errors: { message: string; extensions?: { code?: string } }[];
}

/** One POST over a kept-alive connection (thousands of cases: no new connection each). */
function post(url: string, body: string, token: string | undefined): Promise<Answer> {
  const target = new URL(`${url}/graphql`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let parsed: { errors?: Answer['errors'] };
          try {
            parsed = JSON.parse(text) as { errors?: Answer['errors'] };
          } catch {
            parsed = { errors: [{ message: text }] };
          }
          resolve({ status: res.statusCode ?? 0, errors: parsed.errors ?? [] });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A cheap fingerprint of every table: row counts, the sums that every command moves, the players' names and tokens. */
const FINGERPRINT = `SELECT concat_ws(' ',
  (SELECT count(*) || ':' || md5(coalesce(string_agg("name" || "tokenHash", ',' ORDER BY "id"), '')) FROM "Player"),
  (SELECT count(*) || ':' || coalesce(sum("version"), 0) || ':' || coalesce(sum("lastEventSeq"), 0) FROM "Match"),
  (SELECT count(*) || ':' || count("playerId") FROM "Seat"),
  (SELECT count(*) || ':' || coalesce(sum("score"), 0) FROM "Team"),
  (SELECT count(*) FROM "Round"), (SELECT count(*) FROM "Move"), (SELECT count(*) FROM "MatchEvent"),
  (SELECT count(*) FROM "PlayerMatch"),
  (SELECT count(*) || ':' || coalesce(sum("matchesPlayed" + "matchesWon" + "roundsPlayed" + "pointsScored"), 0) FROM "PlayerStats")) AS f`;

interface Target {
  label: string;
  operation: 'query' | 'mutation';
  /** the document, with variables $v0… for the field's arguments (and $id for a nested field's match) */
  document: string;
  args: { name: string; variable: string; type: IntrospectionField['args'][number]['type'] }[];
  nestedIn?: true;
}

function named(t: IntrospectionOutputTypeRef): { kind: string; name: string } {
  return t.kind === 'NON_NULL' || t.kind === 'LIST' ? named(t.ofType) : t;
}

function selectionOf(schema: IntrospectionSchema, t: IntrospectionOutputTypeRef): string {
  const n = named(t);
  return n.kind === 'OBJECT' || n.kind === 'INTERFACE' || n.kind === 'UNION' ? ' { __typename }' : '';
}

function fieldCall(schema: IntrospectionSchema, field: IntrospectionField, vars: string[]): string {
  const args = field.args.map((a, i) => `${a.name}: $${vars[i]}`).join(', ');
  return `${field.name}(${args})${selectionOf(schema, field.type)}`;
}

/** Paths from Match to every object type reachable through argument-less fields (breadth first: shortest paths). */
function pathsFromMatch(schema: IntrospectionSchema): Map<string, string[]> {
  const paths = new Map<string, string[]>([['Match', []]]);
  const queue = ['Match'];
  while (queue.length > 0) {
    const typeName = queue.shift()!;
    const type = schema.types.find((t) => t.name === typeName) as IntrospectionObjectType;
    for (const f of type.fields) {
      const n = named(f.type);
      if (n.kind !== 'OBJECT' || f.args.length > 0 || paths.has(n.name)) continue;
      paths.set(n.name, [...paths.get(typeName)!, f.name]);
      queue.push(n.name);
    }
  }
  return paths;
}

function targetsOf(schema: IntrospectionSchema): { targets: Target[]; unreachable: string[] } {
  const targets: Target[] = [];
  const unreachable: string[] = [];
  for (const [operation, root] of [
    ['query', schema.queryType.name],
    ['mutation', schema.mutationType!.name],
  ] as const) {
    const type = schema.types.find((t) => t.name === root) as IntrospectionObjectType;
    for (const field of type.fields.filter((f) => f.args.length > 0)) {
      const vars = field.args.map((_, i) => `v${i}`);
      const defs = field.args.map((a, i) => `$${vars[i]}: ${typeText(a.type)}`).join(', ');
      targets.push({
        label: `${root}.${field.name}`,
        operation,
        document: `${operation}(${defs}) { ${fieldCall(schema, field, vars)} }`,
        args: field.args.map((a, i) => ({ name: a.name, variable: vars[i], type: a.type })),
      });
    }
  }
  const paths = pathsFromMatch(schema);
  const roots = new Set([schema.queryType.name, schema.mutationType?.name, schema.subscriptionType?.name]);
  for (const type of schema.types) {
    if (type.kind !== 'OBJECT' || roots.has(type.name) || type.name.startsWith('__')) continue;
    for (const field of type.fields.filter((f) => f.args.length > 0)) {
      const path = paths.get(type.name);
      if (!path) {
        unreachable.push(`${type.name}.${field.name}`);
        continue;
      }
      const vars = field.args.map((_, i) => `v${i}`);
      const defs = ['$id: ID!', ...field.args.map((a, i) => `$${vars[i]}: ${typeText(a.type)}`)].join(', ');
      const inner = path.reduceRight((sel, step) => `${step} { ${sel} }`, fieldCall(schema, field, vars));
      targets.push({
        label: `${type.name}.${field.name}`,
        operation: 'query',
        document: `query(${defs}) { match(id: $id) { ${inner} } }`,
        args: field.args.map((a, i) => ({ name: a.name, variable: vars[i], type: a.type })),
        nestedIn: true,
      });
    }
  }
  return { targets, unreachable };
}

describe('every argument of the schema, fuzzed over HTTP', () => {
  let app: TestApp;
  let db: pg.Client;
  let schema: IntrospectionSchema;
  let fixtures: FuzzFixtures;
  let caller: GqlClient;

  beforeAll(async () => {
    app = await startTestApp();
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    schema = (await app.anon.request<IntrospectionQuery>(getIntrospectionQuery())).__schema;
    // Matches in every state, so that hostile values meet real rows on the way.
    caller = await app.player('fuzzer');
    const other = await app.player('other');
    const create = `mutation($input: CreateMatchInput!) { createMatch(input: $input) { id } }`;
    const waiting = (await caller.request<{ createMatch: { id: string } }>(create, { input: { seats: 3 } })).createMatch.id;
    const playing = (await caller.request<{ createMatch: { id: string } }>(create, { input: { seats: 2 } })).createMatch.id;
    await other.request(`mutation($id: ID!) { joinMatch(matchId: $id) { id } }`, { id: playing });
    const withBots = (await caller.request<{ createMatch: { id: string } }>(create, { input: { seats: 4, bots: 3 } })).createMatch.id;
    const theirs = (await other.request<{ createMatch: { id: string } }>(create, { input: { seats: 2 } })).createMatch.id;
    const page = await app.anon.request<{ matches: { pageInfo: { endCursor: string } }; leaderboard: { pageInfo: { endCursor: string | null } } }>(
      `{ matches(first: 1) { pageInfo { endCursor } } leaderboard(first: 1) { pageInfo { endCursor } } }`,
    );
    fixtures = {
      matchIds: [waiting, playing, withBots, theirs],
      playerIds: [caller.id, other.id],
      cursors: [page.matches.pageInfo.endCursor, page.leaderboard.pageInfo.endCursor].filter((c): c is string => !!c),
    };
  });
  afterAll(async () => {
    agent.destroy();
    await db?.end();
    await app?.close();
  });

  it(`answers ${RUNS} hostile calls without one INTERNAL_SERVER_ERROR, and no refused mutation changes anything`, async () => {
    const { targets, unreachable } = targetsOf(schema);
    expect(unreachable).toEqual([]); // a nested field with arguments this test cannot reach yet: extend pathsFromMatch
    expect(targets.map((t) => t.label)).toEqual(
      expect.arrayContaining(['Query.matches', 'Query.leaderboard', 'Mutation.registerPlayer', 'Round.boardAt']),
    );

    const fingerprint = async () => (await db.query<{ f: string }>(FINGERPRINT)).rows[0].f;
    /** After an accepted mutation, bots may still be moving: wait until no bot is to move anywhere. */
    const settled = async () => {
      for (;;) {
        const { rows } = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "Match" m JOIN "Seat" s ON s."matchId" = m."id" AND s."index" = m."turn"
           WHERE m."status" = 'IN_PROGRESS' AND s."isBot"`,
        );
        if (rows[0].n === 0) return fingerprint();
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    let before = await settled();
    const driven = new Map<string, number>();
    const outcomes = new Map<string, number>();
    const count = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

    const caseOf = fc.oneof(
      ...targets.map((t) =>
        fc.record({
          target: fc.constant(t),
          variables: fc.record(Object.fromEntries(t.args.map((a) => [a.variable, valueFor(a.type, a.name, schema, fixtures)]))),
          matchId: fc.constantFrom(...fixtures.matchIds),
          who: fc.constantFrom('player', 'player', 'player', 'player', 'anonymous', 'bad token'),
        }),
      ),
    );
    // The cases are drawn up front (seeded: FUZZ_SEED replays a run), then sent in two lanes at
    // once: reads four at a time, mutations one at a time, each checked against the fingerprint.
    const seed = SEED ?? Date.now() % 2 ** 31;
    const cases = fc.sample(caseOf, { numRuns: RUNS, seed });
    const failures: string[] = [];
    const run = async ({ target, variables, matchId, who }: (typeof cases)[number]) => {
      for (const a of target.args) if (variables[a.variable] !== undefined) count(driven, `${target.label}(${a.name})`);
      const token = who === 'player' ? caller.token : who === 'bad token' ? 'not-a-token' : undefined;
      const body = JSON.stringify({ query: target.document, variables: target.nestedIn ? { ...variables, id: matchId } : variables });
      const answer = await post(app.url, body, token);
      const codes = answer.errors.map((e) => e.extensions?.code ?? `HTTP ${answer.status}`);
      count(outcomes, codes[0] ?? 'ok');
      const report = (what: string) =>
        failures.push(
          `${what}: ${target.label} as ${who}: HTTP ${answer.status} ${JSON.stringify(answer.errors).slice(0, 300)} for ${body.slice(0, 300)}`,
        );
      if (answer.status >= 500 || codes.includes('INTERNAL_SERVER_ERROR')) report('internal error');
      if (target.operation !== 'mutation') return;
      if (answer.errors.length > 0 || answer.status !== 200) {
        const after = await fingerprint();
        if (after !== before) {
          report('a refused mutation changed the database');
          before = await settled();
        }
      } else {
        before = await settled();
      }
    };
    const reads = cases.filter((c) => c.target.operation === 'query');
    const writes = cases.filter((c) => c.target.operation === 'mutation');
    const started = Date.now();
    await Promise.all([
      ...[0, 1, 2, 3].map(async () => {
        for (let c = reads.shift(); c; c = reads.shift()) await run(c);
      }),
      (async () => {
        for (const c of writes) await run(c);
      })(),
    ]);
    expect({ seed, count: failures.length, first: failures.slice(0, 5) }).toEqual({ seed, count: 0, first: [] });
    const seconds = (Date.now() - started) / 1000;

    // Every argument was driven, many times over.
    const every = targets.flatMap((t) => t.args.map((a) => `${t.label}(${a.name})`));
    expect(every.filter((k) => (driven.get(k) ?? 0) < 5)).toEqual([]);
    console.log(
      `fuzz (seed ${seed}): ${RUNS} cases over ${targets.length} fields / ${every.length} arguments in ${seconds.toFixed(1)} s; outcomes ${JSON.stringify(Object.fromEntries([...outcomes].sort((a, b) => b[1] - a[1])))}`,
    );
  }, 900_000); // a bound for a loaded machine; the run time is printed above
});
