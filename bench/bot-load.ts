/**
 * `npm run bench:bots:load`: what searching bots cost a human. One client plays a 2-player match
 * between two humans and times every playTile: alone, then while 8 bots play their own matches
 * on the same server (8 matches of one human "filler", who answers at once through the myTurns
 * subscription, against one bot), GREEDY bots first and then EXPERT bots, then alone again.
 * The GREEDY phase has the same commands and commits as the EXPERT one but no search, so
 * EXPERT ÷ GREEDY is what the searches (on the worker pool) cost the human; EXPERT ÷ alone
 * adds the bots' and fillers' own commands on the shared event loop and database.
 */
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { REGISTER } from './support/operations.js';
import { benchDatabase, fmt, gql, percentile, startServerProcess } from './support/harness.js';
import { report } from './support/result.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const BOTS = Number(process.env.BENCH_BOTS ?? 8);

const MINE = 'query($id: ID!) { match(id: $id) { status turn mySeat version legalMoves { tile { high low } end } canDraw } }';
const PLAY = 'mutation($i: PlayTileInput!) { playTile(input: $i) { status turn } }';
const DRAW = 'mutation($i: TurnInput!) { drawTile(input: $i) { status turn } }';
const CREATE = 'mutation($input: CreateMatchInput!) { createMatch(input: $input) { id } }';
const JOIN = 'mutation($id: ID!) { joinMatch(matchId: $id) { turn } }';

interface View {
  status: string;
  turn: number | null;
  mySeat: number | null;
  version: number;
  legalMoves: { tile: unknown; end: string | null }[];
  canDraw: boolean;
}

const register = async (url: string, name: string) =>
  (await gql<{ registerPlayer: { token: string } }>(url, REGISTER, { n: name })).registerPlayer.token;

/** Plays the seat's turns while it is their turn; false once the match is over. */
async function playWhileMyTurn(url: string, matchId: string, token: string, onPlay?: (ms: number) => void): Promise<boolean> {
  for (;;) {
    const v = (await gql<{ match: View }>(url, MINE, { id: matchId }, token)).match;
    if (v.status !== 'IN_PROGRESS') return false;
    if (v.turn !== v.mySeat) return true;
    if (v.legalMoves.length > 0) {
      const mv = v.legalMoves[0];
      const t0 = performance.now();
      await gql(url, PLAY, { i: { matchId, tile: mv.tile, end: mv.end, expectedVersion: v.version } }, token);
      onPlay?.(performance.now() - t0);
    } else {
      await gql(url, DRAW, { i: { matchId, expectedVersion: v.version } }, token);
    }
  }
}

/** A human against one EXPERT bot, answering at once whenever myTurns says it is their turn. */
class Filler {
  private ws: Client | null = null;
  private matchId = '';
  private busy: Promise<void> = Promise.resolve();
  private stopped = false;
  turns = 0;

  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly strategy: string,
  ) {}

  async start(): Promise<void> {
    this.ws = createClient({
      url: this.url.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${this.token}` },
    });
    this.ws.subscribe({ query: 'subscription { myTurns { id } }' }, { next: () => this.kick(), error: () => {}, complete: () => {} });
    await this.newMatch();
  }

  private async newMatch(): Promise<void> {
    const input = { seats: 2, bots: 1, botStrategy: this.strategy };
    this.matchId = (await gql<{ createMatch: { id: string } }>(this.url, CREATE, { input }, this.token)).createMatch.id;
    this.kick();
  }

  private kick(): void {
    this.busy = this.busy.then(async () => {
      // myTurns may speak before createMatch has answered: nothing to play yet.
      if (this.stopped || !this.matchId) return;
      const live = await playWhileMyTurn(this.url, this.matchId, this.token, () => this.turns++);
      if (!live && !this.stopped) await this.newMatch();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.busy.catch(() => {});
    await this.ws?.dispose();
  }
}

/** The measured human: plays both seats of a human match, timing each playTile, for `seconds`. */
async function measure(url: string, seconds: number, tokens: string[]): Promise<number[]> {
  const latencies: number[] = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const matchId = (await gql<{ createMatch: { id: string } }>(url, CREATE, { input: { seats: 2 } }, tokens[0])).createMatch.id;
    await gql(url, JOIN, { id: matchId }, tokens[1]);
    let live = true;
    while (live && Date.now() < until) {
      for (const token of tokens) live = live && (await playWhileMyTurn(url, matchId, token, (ms) => latencies.push(ms)));
    }
  }
  return latencies.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const db = await benchDatabase();
  const server = await startServerProcess(db.url);
  const url = server.url;
  try {
    const tokens = [await register(url, 'human-a'), await register(url, 'human-b')];
    await measure(url, 2, tokens); // warm-up
    const before = await measure(url, SECONDS / 2, tokens);
    const withBots = async (strategy: string) => {
      const fillers = await Promise.all(
        Array.from({ length: BOTS }, async (_, i) => new Filler(url, await register(url, `${strategy}${i}`), strategy)),
      );
      await Promise.all(fillers.map((f) => f.start()));
      await new Promise((r) => setTimeout(r, 2000)); // the bots' workers warm up
      const turnsBefore = fillers.reduce((s, f) => s + f.turns, 0);
      const started = performance.now();
      const plays = await measure(url, SECONDS, tokens);
      const turnsPerSecond = ((fillers.reduce((s, f) => s + f.turns, 0) - turnsBefore) * 1000) / (performance.now() - started);
      await Promise.all(fillers.map((f) => f.stop()));
      return { plays, turnsPerSecond };
    };
    const greedy = await withBots('GREEDY');
    const expert = await withBots('EXPERT');
    const after = await measure(url, SECONDS / 2, tokens);
    const alone = [...before, ...after].sort((a, b) => a - b);
    const line = (name: string, xs: number[]) =>
      `${name}: p50 ${fmt(percentile(xs, 50), 2)} ms, p99 ${fmt(percentile(xs, 99), 2)} ms (${xs.length} plays)`;
    console.log(
      `playTile p99 with ${BOTS} EXPERT bots playing ÷ alone: ${fmt(percentile(expert.plays, 99) / percentile(alone, 99), 2)}; ` +
        `÷ with ${BOTS} GREEDY bots (same commands, no search): ${fmt(percentile(expert.plays, 99) / percentile(greedy.plays, 99), 2)}`,
    );
    report({
      expertLoadP99Ratio: percentile(expert.plays, 99) / percentile(alone, 99),
      greedyLoadP99Ratio: percentile(greedy.plays, 99) / percentile(alone, 99),
    });
    console.log(`  ${line('alone', alone)}  |  ${line(`${BOTS} GREEDY bots`, greedy.plays)}  |  ${line(`${BOTS} EXPERT bots`, expert.plays)}`);
    console.log(
      `  the bots' matches meanwhile: ${fmt(greedy.turnsPerSecond, 1)} (GREEDY) and ${fmt(expert.turnsPerSecond, 1)} (EXPERT) filler turns/s, each answered by a bot move`,
    );
  } finally {
    await server.stop();
    await db.stop();
  }
}

await main();
