/**
 * Writes the example of docs/match-record.md (`npm run docs:record-example`): a real record,
 * exported by the server after a whole match played through its public API (a player against a
 * GREEDY bot, to 50 points), on a throwaway embedded PostgreSQL. It keeps the first match that
 * shows the parts a verifier needs: more than one round, a draw, and a round ended by a domino or
 * a block with its bonus. The record goes to docs/match-record.example.json and, verbatim,
 * between the markers in docs/match-record.md; test/record-example.e2e-spec.ts checks that it
 * is current (the schema of this version, both copies equal) and re-verifies every score.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'prettier';
import { startServer } from '../src/bootstrap.js';
import { loadConfig } from '../src/config/config.js';
import { startEmbedded } from '../src/database/database-url.js';

const TARGET = 50;
const MD = 'docs/match-record.md';
const JSON_FILE = 'docs/match-record.example.json';
const MARKERS = ['<!-- record-example:start -->', '<!-- record-example:end -->'] as const;

type Rec = { rounds: { status: string; moves: { type: string }[]; result: { end: string } | null }[] };

async function gql<T>(url: string, query: string, variables: Record<string, unknown>, token?: string): Promise<T> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data: T; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

type Seen = { status: string; version: number; turn: number | null; mySeat: number; legalMoves: { tile: unknown; end: unknown }[] };
const READ = 'query($id: ID!) { match(id: $id) { status version turn mySeat legalMoves { tile { high low } end } } }';

/** One match to its end: the player takes the first legal move (or draws), the server's bot answers. */
async function playOne(url: string): Promise<Rec> {
  const { registerPlayer } = await gql<{ registerPlayer: { token: string } }>(url, 'mutation { registerPlayer(name: "ann") { token } }', {});
  const token = registerPlayer.token;
  const input = { seats: 2, bots: 1, botStrategy: 'GREEDY', rules: { targetScore: TARGET } };
  const { createMatch } = await gql<{ createMatch: { id: string } }>(
    url,
    'mutation($input: CreateMatchInput!) { createMatch(input: $input) { id } }',
    { input },
    token,
  );
  for (;;) {
    const { match } = await gql<{ match: Seen }>(url, READ, { id: createMatch.id }, token);
    if (match.status !== 'IN_PROGRESS') break;
    if (match.turn !== match.mySeat) {
      await new Promise((r) => setTimeout(r, 20)); // the bot is moving
      continue;
    }
    const guard = { matchId: createMatch.id, expectedVersion: match.version };
    if (match.legalMoves.length > 0) {
      const [{ tile, end }] = match.legalMoves;
      await gql(url, 'mutation($i: PlayTileInput!) { playTile(input: $i) { version } }', { i: { ...guard, tile, end } }, token);
    } else await gql(url, 'mutation($i: TurnInput!) { drawTile(input: $i) { version } }', { i: guard }, token);
  }
  return (await (await fetch(`${url}/matches/${createMatch.id}/record`)).json()) as Rec;
}

const illustrative = (r: Rec) =>
  r.rounds.length > 1 &&
  r.rounds.some((x) => x.moves.some((m) => m.type === 'DRAW')) &&
  r.rounds.some((x) => x.result?.end === 'DOMINO' || x.result?.end === 'BLOCKED');

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'dominoes-record-example-'));
  await chmod(dir, 0o755); // PostgreSQL runs as its own unprivileged user
  const db = await startEmbedded(join(dir, 'data'), 0, 'dominoes_example');
  const server = await startServer(loadConfig({ LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', DATABASE_URL: db.url }), { logger: false });
  try {
    let record: Rec | null = null;
    for (let i = 0; i < 50 && !record; i++) {
      const r = await playOne(server.url);
      if (illustrative(r)) record = r;
    }
    if (!record) throw new Error('no illustrative match in 50');
    const text = await format(JSON.stringify(record), { parser: 'json', printWidth: 150 });
    await writeFile(JSON_FILE, text);
    const md = await readFile(MD, 'utf8');
    const [start, end] = [md.indexOf(MARKERS[0]), md.indexOf(MARKERS[1])];
    if (start < 0 || end < start) throw new Error(`${MD} lacks the markers ${MARKERS.join(' … ')}`);
    await writeFile(MD, `${md.slice(0, start + MARKERS[0].length)}\n\n\`\`\`json\n${text}\`\`\`\n\n${md.slice(end)}`);
    console.log(`wrote ${JSON_FILE} and the example in ${MD}`);
  } finally {
    await server.close();
    await db.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
