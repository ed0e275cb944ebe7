#!/usr/bin/env node
// A complete bot for the Straight Dominoes server: registers, creates a match against a server
// bot, and plays it to its end living on the `myTurns` subscription alone (docs/clients.md).
//
//   node examples/bot.mjs                      # against http://localhost:3000/graphql
//   GRAPHQL_URL=http://host:3000/graphql TARGET_SCORE=100 node examples/bot.mjs
//
// Needs `graphql-ws` and `ws` (Node 20 has no WebSocket global); both are dependencies of this
// repository. Prints one JSON line per answer to a move, then the result; exits 0 when the
// match finished, 1 on an error.
import { randomUUID } from 'node:crypto';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const HTTP_URL = process.env.GRAPHQL_URL ?? 'http://localhost:3000/graphql';
const WS_URL = HTTP_URL.replace(/^http/, 'ws');
const TARGET_SCORE = Number(process.env.TARGET_SCORE ?? 100);

const MATCH_FIELDS = 'id status version turn mySeat canDraw legalMoves { tile { high low } end } teams { index score } winner { index }';

/** One GraphQL request over HTTP; throws an Error carrying `code` (extensions.code) on a GraphQL error. */
async function gql(query, variables = {}, token) {
  const res = await fetch(HTTP_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  // An answer that is no GraphQL response (a proxy's error page, a gateway timeout) is a network
  // failure like any other: no code, so command() retries it.
  const body = await res.json().catch(() => null);
  if (!body || (body.data === undefined && !body.errors?.length)) throw new Error(`the server answered ${res.status} with no GraphQL response`);
  if (body.errors?.length) {
    const [e] = body.errors;
    throw Object.assign(new Error(`${e.extensions?.code}: ${e.message}`), { code: e.extensions?.code, extensions: e.extensions });
  }
  return body.data;
}

/** A command, retried on a network failure with the same clientMoveId: applied at most once. */
async function command(query, input, token) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await gql(query, { input }, token);
    } catch (e) {
      if (e.code || attempt >= 3) throw e; // a GraphQL error is an answer: retrying it as is would not help
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
}

const PLAY = `mutation($input: PlayTileInput!) { playTile(input: $input) { ${MATCH_FIELDS} } }`;
const DRAW = `mutation($input: TurnInput!) { drawTile(input: $input) { ${MATCH_FIELDS} } }`;
const READ = `query($id: ID!) { match(id: $id) { ${MATCH_FIELDS} } }`;

/** The move this bot makes: the first legal play (any choice from legalMoves is legal), else a draw. */
async function takeTurn(match, token) {
  const input = { matchId: match.id, expectedVersion: match.version, clientMoveId: randomUUID() };
  if (match.legalMoves.length > 0) {
    const { tile, end } = match.legalMoves[0];
    return (await command(PLAY, { ...input, tile, end }, token)).playTile;
  }
  return (await command(DRAW, input, token)).drawTile;
}

async function main() {
  const { registerPlayer } = await gql('mutation($name: String!) { registerPlayer(name: $name) { token player { id } } }', { name: 'example-bot' });
  const token = registerPlayer.token;

  const client = createClient({
    url: WS_URL,
    webSocketImpl: WebSocket,
    // The token goes in connection_init's payload (an Authorization header on the upgrade works too).
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 5, // reconnects re-subscribe; myTurns then pushes every match where it is our turn
  });

  // Subscribe first, then create: myTurns also pushes turns that began before it was set up, so
  // the order does not matter for correctness, but this way nothing waits on a catch-up.
  const turns = client.iterate({ query: `subscription { myTurns { ${MATCH_FIELDS} } }` });
  const { createMatch } = await gql(
    'mutation($input: CreateMatchInput!) { createMatch(input: $input) { id } }',
    { input: { seats: 2, bots: 1, botStrategy: 'GREEDY', rules: { targetScore: TARGET_SCORE } } },
    token,
  );
  const matchId = createMatch.id;
  console.log(JSON.stringify({ created: matchId }));

  let done = 0; // the newest version this bot moved on and had its move answered: pushes up to it are stale
  let final = null;
  for await (const result of turns) {
    if (result.errors) throw new Error(JSON.stringify(result.errors));
    let match = result.data.myTurns;
    if (match.id !== matchId) continue;
    if (match.status !== 'IN_PROGRESS') {
      final = match; // the match ended: pushed once, whoever ended it
      break;
    }
    if (match.version <= done) continue; // already moved on this version or a newer one
    // Our turn: act from each answer while it stays ours (a draw keeps the turn and is not pushed).
    while (match.status === 'IN_PROGRESS' && match.turn === match.mySeat) {
      try {
        const answer = await takeTurn(match, token);
        done = match.version; // only now: the move made on this version was answered
        match = answer;
      } catch (e) {
        if (e.code !== 'STALE_VERSION') throw e;
        match = (await gql(READ, { id: matchId }, token)).match; // decide again on the current state
      }
      console.log(JSON.stringify({ version: match.version, turn: match.turn }));
    }
    if (match.status !== 'IN_PROGRESS') {
      final = match; // our own play ended it
      break;
    }
  }
  await client.dispose();
  if (!final) throw new Error('the subscription ended before the match did');
  console.log(
    JSON.stringify({
      matchId,
      status: final.status,
      winner: final.winner?.index ?? null,
      scores: final.teams.map((t) => t.score),
      mySeat: final.mySeat,
    }),
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
