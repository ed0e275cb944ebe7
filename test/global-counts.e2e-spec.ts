import { Agent, request } from 'undici';
import { FairQueue } from '../src/common/fair-queue.js';
import { GlobalCounts } from '../src/database/global-counts.js';
import { HistoryRepository } from '../src/history/history.repository.js';
import { StatsRepository } from '../src/history/stats.repository.js';
import { MatchmakingRepository } from '../src/matches/matchmaking.repository.js';
import { startTestApp, type TestApp } from './support/app.js';
import { eventually } from './support/eventually.js';
import type { GqlClient } from './support/gql.js';

/**
 * How many calls of one kind were inside the database at once, at most. Each call holds its place
 * until `together` calls are inside or 5 s pass: calls that may run side by side then overlap
 * however slowly the machine delivers them, and calls kept apart still show up as one at a time.
 */
class Overlap {
  private running = 0;
  private arrived: (() => void)[] = [];
  most = 0;
  /** While set, every call waits for it too before reading. */
  gate: Promise<void> | null = null;
  constructor(private readonly together = 1) {}
  async around<T>(read: () => Promise<T>): Promise<T> {
    this.most = Math.max(this.most, ++this.running);
    try {
      if (this.running >= this.together) for (const wake of this.arrived.splice(0)) wake();
      await new Promise<void>((wake) => {
        this.arrived.push(wake);
        setTimeout(wake, this.running >= this.together ? 100 : 5000);
      });
      await this.gate;
      return await read();
    } finally {
      this.running--;
    }
  }
}

/**
 * Counts over everyone (a `matches` list without `playerId` selecting `totalCount`, every
 * `leaderboard` page) run DB_GLOBAL_COUNTS at a time in a process; everything else goes straight on.
 */
describe('counts over every match or player (DB_GLOBAL_COUNTS=1)', () => {
  let app: TestApp;
  let players: GqlClient[];
  const global = new Overlap();
  const scoped = new Overlap(3);
  const uncounted = new Overlap();
  beforeAll(async () => {
    // Counts wait their turn for as long as the tests make them (not DB_ACQUIRE_TIMEOUT_MS's 5 s).
    app = await startTestApp({ DB_GLOBAL_COUNTS: '1', DB_ACQUIRE_TIMEOUT_MS: '60000' });
    players = await Promise.all([0, 1, 2].map((i) => app.player(`counted${i}`)));
    for (const p of players) await p.request('mutation { createMatch(input: { seats: 2 }) { id } }');
    // Each read inside the database is timed and counted by kind.
    const history = app.server.app.get(HistoryRepository);
    const page = history.page.bind(history);
    history.page = (f, take, after, count) => (count && !f.playerId ? global : count ? scoped : uncounted).around(() => page(f, take, after, count));
    const stats = app.server.app.get(StatsRepository);
    const leaderboard = stats.leaderboard.bind(stats);
    stats.leaderboard = (take, after) => global.around(() => leaderboard(take, after));
    const matchmaking = app.server.app.get(MatchmakingRepository);
    const openCount = matchmaking.openCount.bind(matchmaking);
    matchmaking.openCount = () => (openCounts++, global.around(openCount));
  });
  let openCounts = 0;
  afterAll(() => app.close());

  it("runs them one at a time however many ask at once, with right answers; one player's counts and pages without a count do not wait", async () => {
    const waitingMatches = () => app.anon.request<{ matches: { totalCount: number } }>('{ matches(status: WAITING) { totalCount } }');
    const leaders = () => app.anon.request<{ leaderboard: { totalCount: number } }>('{ leaderboard(first: 5) { totalCount } }');
    const open = () => app.anon.request<{ openMatches: { totalCount: number } }>('{ openMatches { totalCount } }');
    const own = (p: GqlClient) =>
      p.request<{ matches: { totalCount: number } }>('query($p: ID!) { matches(playerId: $p) { totalCount } }', { p: p.id });
    const plain = () => app.anon.request<{ matches: { edges: unknown[] } }>('{ matches(status: WAITING) { edges { node { id } } } }');

    const done: string[] = [];
    const tag = <T>(name: string, p: Promise<T>): Promise<T> => p.then((v) => (done.push(name), v));
    const counts = Array.from({ length: 9 }, (_, i) => tag<unknown>(`count${i}`, [waitingMatches, leaders, open][i % 3]()));
    const mine = players.map((p) => own(p));
    const page = tag('plain', plain());
    const [answers, owns, listed] = await Promise.all([Promise.all(counts), Promise.all(mine), page]);

    expect(global.most).toBe(1);
    expect(scoped.most).toBe(players.length);
    expect(answers.filter((_, i) => i % 3 === 0)).toEqual([0, 1, 2].map(() => ({ matches: { totalCount: players.length } })));
    expect(answers.filter((_, i) => i % 3 === 1)).toEqual([0, 1, 2].map(() => ({ leaderboard: { totalCount: 0 } })));
    expect(answers.filter((_, i) => i % 3 === 2)).toEqual([0, 1, 2].map(() => ({ openMatches: { totalCount: players.length } })));
    expect(owns).toEqual(players.map(() => ({ matches: { totalCount: 1 } })));
    expect(listed.matches.edges).toHaveLength(players.length);
    // The page without a count went past the queue of nine counts, each 100 ms or more.
    expect(done.indexOf('plain')).toBeLessThan(done.indexOf('count8'));
  });

  it('counts the open matches only when totalCount is asked for', async () => {
    const before = openCounts;
    const page = await app.anon.request<{ openMatches: { edges: unknown[] } }>('{ openMatches { edges { node { id } } } }');
    expect(page.openMatches.edges).toHaveLength(players.length);
    expect(openCounts).toBe(before);
    await app.anon.request('{ openMatches { totalCount } }');
    expect(openCounts).toBe(before + 1);
  });

  it("serves client addresses in turns: a flood from one address delays another's count by one count, and past 10 waiting it is refused", async () => {
    // Two clients of two addresses: all of 127.0.0.0/8 is this machine's loopback.
    const from = (localAddress: string) => {
      const dispatcher = new Agent({ localAddress });
      return async (query: string) => {
        const res = await request(`${app.url}/graphql`, {
          method: 'POST',
          dispatcher,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query }),
        });
        return (await res.body.json()) as { data?: unknown; errors?: { extensions?: { code?: string } }[] };
      };
    };
    const flooder = from('127.0.0.1');
    const other = from('127.0.0.2');
    const count = '{ matches(status: WAITING) { totalCount } }';

    const counts: unknown = app.server.app.get(GlobalCounts); // its queue is private: read for the test
    const queue = (counts as { waiting: FairQueue<unknown> }).waiting;
    const waiting = (address: string) => queue.sizeOf(address);
    // The first count is held until every other request is in line, however slowly they arrive.
    let release!: () => void;
    global.gate = new Promise((r) => (release = r));

    const done: string[] = [];
    const refusals: string[] = [];
    // One running and ten waiting: the most one address may have waiting; the twelfth is refused at once.
    const flood = Array.from({ length: 12 }, (_, i) =>
      flooder(count).then((r) => (r.errors ? refusals.push(`flood${i}`) : done.push(`flood${i}`), r)),
    );
    await eventually(
      () => [waiting('127.0.0.1'), refusals.length],
      ([w, r]) => w === 10 && r === 1,
      'ten counts waiting, one refused',
    );
    const asked = other(count).then((r) => (done.push('other'), r));
    await eventually(
      () => waiting('127.0.0.2'),
      (w) => w === 1,
      "the other address's count waiting",
    );
    global.gate = null;
    release();
    const theirs = await asked;

    expect(theirs).toEqual({ data: { matches: { totalCount: players.length } } });
    // Round robin: of the counts that ran, the flood's first (running), its next, then the other address's.
    expect(done.indexOf('other')).toBeLessThanOrEqual(2);
    const answers = await Promise.all(flood);
    const refused = answers.filter((a) => a.errors);
    expect(refused).toHaveLength(1);
    expect(refused[0].errors?.[0].extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 1 });
    expect(answers.filter((a) => !a.errors)).toEqual(Array(11).fill({ data: { matches: { totalCount: players.length } } }));
  });
});
