import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config/config.js';
import { stopLeftoverPostgres } from '../src/database/data-dir-lock.js';
import { freePort } from '../src/database/database-url.js';
import { PrismaService } from '../src/database/prisma.service.js';
import { UNLIMITED } from './support/app.js';
import { M_CREATE, M_JOIN, type MatchT } from './support/fragments.js';
import { GqlClient } from './support/gql.js';
import { expectReplayable } from './support/replay-check.js';
import { spawnServer, startServerChild, type ListeningServer } from './support/server-process.js';

const Q_MINE = `query($id: ID!) { match(id: $id) { status version turn mySeat legalMoves { tile { high low } end } canDraw } }`;
const M_PLAY = `mutation($input: PlayTileInput!) { playTile(input: $input) { version } }`;
const M_DRAW = `mutation($input: TurnInput!) { drawTile(input: $input) { version } }`;
/** Acknowledged moves before the kill: enough for every match to be under way. */
const ACKS_BEFORE_KILL = 60;

interface Ack {
  matchId: string;
  clientMoveId: string;
  version: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Matches of these whose seat to move is a bot. */
async function botToMove(db: PrismaService, matchIds: string[]): Promise<string[]> {
  const rows = await db.match.findMany({ where: { id: { in: matchIds }, status: 'IN_PROGRESS' }, include: { seats: true } });
  return rows.filter((m) => m.seats.find((s) => s.index === m.turn)?.isBot).map((m) => m.id);
}

/** Waits until no match of these has a bot to move; returns those still waiting at the (failure) deadline. */
async function botsDone(db: PrismaService, matchIds: string[]): Promise<string[]> {
  const deadline = Date.now() + 30_000;
  let waiting = await botToMove(db, matchIds);
  while (waiting.length > 0 && Date.now() < deadline) {
    await sleep(100);
    waiting = await botToMove(db, matchIds);
  }
  return waiting;
}

/** Every seat plays its match at once until `stopAfter` moves are acknowledged; then `stop` runs. */
async function playUntil(
  seats: { matchId: string; client: GqlClient }[],
  tag: string,
  stopAfter: number,
  stop: () => Promise<unknown>,
): Promise<Ack[]> {
  const acks: Ack[] = [];
  let stopped = false;
  let failure: unknown = null;
  const players = seats.map((s, i) => play(s.client, s.matchId, `${tag}${i}`, acks, () => stopped).catch((e: unknown) => void (failure ??= e)));
  while (acks.length < stopAfter && failure === null) await sleep(5);
  stopped = true;
  await stop();
  await Promise.all(players);
  // A player's own failure, rethrown as it came.
  // eslint-disable-next-line @typescript-eslint/only-throw-error
  if (failure) throw failure;
  return [...acks];
}

async function register(url: string, name: string): Promise<GqlClient> {
  const res = await new GqlClient(url).request<{ registerPlayer: { token: string; player: { id: string; name: string } } }>(
    'mutation($name: String!) { registerPlayer(name: $name) { token player { id name } } }',
    { name },
  );
  return new GqlClient(url, res.registerPlayer.token, res.registerPlayer.player);
}

/**
 * One human seat playing its match: on its turn, a legal move with a clientMoveId; every answer
 * received is an acknowledged move. Ends quietly once `stopped()` (the server is being killed).
 */
async function play(client: GqlClient, matchId: string, tag: string, acks: Ack[], stopped: () => boolean): Promise<void> {
  for (let n = 0; !stopped();) {
    try {
      const m = (await client.request<{ match: MatchT }>(Q_MINE, { id: matchId })).match;
      if (m.status !== 'IN_PROGRESS') return;
      if (m.turn !== m.mySeat) {
        await sleep(15);
        continue;
      }
      const clientMoveId = `${tag}-${n++}`;
      const move = m.legalMoves[0];
      const input = { matchId, expectedVersion: m.version, clientMoveId, ...(move ? { tile: move.tile, end: move.end } : {}) };
      const res = move
        ? (await client.request<{ playTile: { version: number } }>(M_PLAY, { input })).playTile
        : (await client.request<{ drawTile: { version: number } }>(M_DRAW, { input })).drawTile;
      acks.push({ matchId, clientMoveId, version: res.version });
    } catch (e) {
      if (stopped()) return;
      throw e;
    }
  }
}

describe('crash recovery on the embedded default (npm start after a SIGKILL)', () => {
  let dir: string;
  let env: Record<string, string>;
  let server: ListeningServer | null = null;
  let prisma: PrismaService | null = null;
  let played: { seatsOf: { matchId: string; client: GqlClient }[]; matchIds: string[] } | null = null;
  const databaseUrl = () => `postgresql://postgres:postgres@127.0.0.1:${env.EMBEDDED_PG_PORT}/dominoes`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dominoes-crash-'));
    await chmod(dir, 0o755); // the embedded PostgreSQL runs as its own unprivileged user
    // A fixed port, so the test can reach the same database after the restart; a quick sweep.
    // No rate limits: the seats poll for their turn, and on a loaded machine, while the bots are
    // slow, those polls would outrun the per-address budget (rate limits have tests of their own).
    env = { ...UNLIMITED, DATA_DIR: dir, EMBEDDED_PG_PORT: String(await freePort()), SWEEP_INTERVAL_MS: '200', SWEEP_GRACE_MS: '500' };
  });

  afterAll(async () => {
    await prisma?.onApplicationShutdown();
    await server?.kill('SIGTERM');
    await stopLeftoverPostgres(join(dir, 'postgres')); // only if a failed assertion left one
    await rm(dir, { recursive: true, force: true });
  });

  it('restarts with no manual step, loses no acknowledged move, every round replays and every bot moves on', async () => {
    server = await startServerChild(env);
    const url = server.url;
    const humans = await Promise.all(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((n) => register(url, n)));
    const create = async (p: GqlClient, input: Record<string, unknown>) =>
      (await p.request<{ createMatch: MatchT }>(M_CREATE, { input: { rules: { targetScore: 250 }, ...input } })).createMatch.id;
    // Humans against bots (the bots move after every human move), and humans against humans.
    const seatsOf: { matchId: string; client: GqlClient }[] = [];
    for (const p of humans.slice(0, 4)) seatsOf.push({ matchId: await create(p, { seats: 4, bots: 3 }), client: p });
    const duel = await create(humans[4], { seats: 2, bots: 1 });
    seatsOf.push({ matchId: duel, client: humans[4] });
    const pvp = await create(humans[4], { seats: 2 });
    await humans[5].request(M_JOIN, { id: pvp });
    seatsOf.push({ matchId: pvp, client: humans[4] }, { matchId: pvp, client: humans[5] });
    const mixed = await create(humans[5], { seats: 4, partnerships: true, bots: 2 });
    await humans[0].request(M_JOIN, { id: mixed });
    seatsOf.push({ matchId: mixed, client: humans[5] }, { matchId: mixed, client: humans[0] });
    const matchIds = [...new Set(seatsOf.map((s) => s.matchId))];

    played = { seatsOf, matchIds };

    // Everyone plays at once; the server is killed mid-play, requests and bot moves in flight.
    const acked = await playUntil(seatsOf, 'm', ACKS_BEFORE_KILL, () => server!.kill('SIGKILL'));

    // The embedded PostgreSQL outlived its server: the situation the restart must handle.
    const pgDir = join(dir, 'postgres');
    const orphan = Number.parseInt(readFileSync(join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0], 10);
    expect(isAlive(orphan)).toBe(true);

    // What the dead server left: matches with a bot to move and nobody to move it.
    const before = new PrismaService(databaseUrl(), loadConfig({ DATABASE_URL: databaseUrl() }));
    const stranded = (await botToMove(before, matchIds)).length;
    await before.onApplicationShutdown();

    // The same command again, nothing done by hand in between.
    server = await startServerChild(env);
    const restartedAt = Date.now();
    expect(isAlive(orphan)).toBe(false);
    expect(server.output()).toContain(`process ${orphan}`);

    prisma = new PrismaService(databaseUrl(), loadConfig({ DATABASE_URL: databaseUrl() }));

    // No acknowledged move is lost: each is stored, and no match is behind what a client was told.
    const stored = await prisma.move.findMany({
      where: { clientMoveId: { in: acked.map((a) => a.clientMoveId) } },
      select: { matchId: true, clientMoveId: true },
    });
    expect(new Set(stored.map((m) => `${m.matchId}/${m.clientMoveId}`))).toEqual(new Set(acked.map((a) => `${a.matchId}/${a.clientMoveId}`)));
    const versions = new Map((await prisma.match.findMany({ where: { id: { in: matchIds } } })).map((m) => [m.id, m.version]));
    for (const a of acked) expect(versions.get(a.matchId)!).toBeGreaterThanOrEqual(a.version);

    // Every match with a bot to move moves on (the sweeper at boot); the deadline is only a failure bound.
    expect(await botsDone(prisma, matchIds)).toEqual([]);
    if (process.env.REPORT_FIGURES) {
      console.log(
        `${stranded} of ${matchIds.length} matches had a bot to move after the kill; none left ${Date.now() - restartedAt} ms after the restart listened`,
      );
    }

    // Every stored round replays to its snapshot, and play goes on after the restart.
    for (const id of matchIds) await expectReplayable(prisma, id);
    const again: Ack[] = [];
    let done = false;
    const h1 = new GqlClient(server.url, humans[0].token, humans[0].me);
    let failure2: unknown = null;
    const resumed = play(h1, seatsOf[0].matchId, 'after', again, () => done).catch((e: unknown) => void (failure2 = e));
    while (again.length === 0 && failure2 === null) await sleep(10);
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    if (failure2) throw failure2;
    done = true;
    await resumed;
    expect(await botsDone(prisma, matchIds)).toEqual([]); // a live match replays once its bots are done
    await expectReplayable(prisma, seatsOf[0].matchId);
  });

  it('refuses a second server on the data folder in use, in one line naming the folder, the process and DATA_DIR', async () => {
    const second = spawnServer(env);
    expect(await second.exited).toBe(1);
    const out = second.output().trim();
    expect(out.split('\n')).toHaveLength(1);
    expect(out).toContain(dir);
    expect(out).toContain(`process ${server!.child.pid}`);
    expect(out).toContain('DATA_DIR');
    expect(out).not.toMatch(/\n\s+at /);
    // The first server is unharmed, and a clean stop takes its PostgreSQL and its claim along.
    expect((await new GqlClient(server!.url).request<{ __typename: string }>('{ __typename }')).__typename).toBe('Query');
    await prisma?.onApplicationShutdown();
    prisma = null;
    const code = await server!.kill('SIGTERM');
    if (code !== 0) throw new Error(`exit ${code}: ${server!.output()}`);
    server = null;
    expect(existsSync(join(dir, 'postgres', 'postmaster.pid'))).toBe(false);
    expect(existsSync(join(dir, 'server.pid'))).toBe(false);
  });

  it('on SIGTERM lets the bot moves in flight finish, and the next start moves the bots left to move', async () => {
    const { seatsOf, matchIds } = played!;
    server = await startServerChild(env);
    const url = server.url;
    const seats = seatsOf.map((s) => ({ matchId: s.matchId, client: new GqlClient(url, s.client.token, s.client.me) }));
    await playUntil(seats, 't', 12, () => server!.kill('SIGTERM'));
    const out = server.output();
    expect(await server.exited).toBe(0);
    // A bot move cut off by the database closing under it would be logged as an error.
    expect(out).not.toMatch(/"level":(50|60)/);
    server = null;

    server = await startServerChild(env);
    prisma = new PrismaService(databaseUrl(), loadConfig({ DATABASE_URL: databaseUrl() }));
    expect(await botsDone(prisma, matchIds)).toEqual([]);
    for (const id of matchIds) await expectReplayable(prisma, id);
  });
});
