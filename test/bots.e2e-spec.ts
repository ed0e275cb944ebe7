import { PrismaService } from '../src/database/prisma.service.js';
import { verifyRecord } from '../src/history/verify-record.js';
import { startTestApp, type TestApp } from './support/app.js';
import { driveMatch } from './support/driver.js';
import { M_CREATE, M_JOIN, type MatchT } from './support/fragments.js';
import { expectReplayable } from './support/replay-check.js';

/**
 * The stronger bots over the public API: their searches run on the worker pool, and a match with
 * them plays to the end like any other (stored, replayable).
 */
describe('EXPERT and DEFENSIVE bots', () => {
  let app: TestApp;
  beforeAll(async () => {
    // A small node budget keeps the suite quick on a loaded machine; the search is the same.
    app = await startTestApp({ BOT_SEARCH_NODES: '1000', BOT_WORKERS: '2' });
  });
  afterAll(async () => {
    await app.close();
  });

  it.each([
    ['1 human and 3 EXPERT bots in partnerships', { seats: 4, partnerships: true, bots: 3, botStrategy: 'EXPERT', rules: { targetScore: 100 } }],
    ['1 human and 1 EXPERT bot', { seats: 2, bots: 1, botStrategy: 'EXPERT', rules: { targetScore: 100 } }],
    ['1 human and 2 DEFENSIVE bots', { seats: 3, bots: 2, botStrategy: 'DEFENSIVE', rules: { targetScore: 100 } }],
  ])('%s: played to the end, stored, replayable', async (_name, input) => {
    const human = await app.player('ann');
    const { createMatch } = await human.request<{ createMatch: MatchT }>(M_CREATE, { input });
    expect(createMatch.seats.filter((s) => s.isBot)).toHaveLength(input.bots);
    const { final } = await driveMatch(new Map([[0, human]]), createMatch.id, 3);
    expect(final.status).toBe('FINISHED');
    expect(final.winner).not.toBeNull();
    expect(Math.max(...final.teams.map((t) => t.score))).toBeGreaterThanOrEqual(100);
    // The bots moved: every bot seat played tiles.
    const botSeats = final.seats.filter((s) => s.isBot).map((s) => s.index);
    const played = new Set(final.rounds.flatMap((r) => r.moves.filter((m) => m.type === 'PLAY').map((m) => m.seat)));
    for (const s of botSeats) expect(played.has(s)).toBe(true);
    await expectReplayable(app, createMatch.id);
  });

  it('botSeats: two partners against two bots, played to the end, with a record that verifies', async () => {
    const [ann, bob] = await Promise.all([app.player('ann'), app.player('bob')]);
    const input = { seats: 4, partnerships: true, botSeats: [3, 1], rules: { targetScore: 50 } };
    const { createMatch } = await ann.request<{ createMatch: MatchT }>(M_CREATE, { input });
    expect(createMatch.seats.map((s) => [s.index, s.team, s.isBot])).toEqual([
      [0, 0, false],
      [1, 1, true],
      [2, 0, false],
      [3, 1, true],
    ]);
    await bob.request(M_JOIN, { id: createMatch.id });
    const { final } = await driveMatch(
      new Map([
        [0, ann],
        [2, bob],
      ]),
      createMatch.id,
      5,
    );
    expect(final.status).toBe('FINISHED');
    expect(final.seats.map((s) => s.player?.id ?? null)).toEqual([ann.id, null, bob.id, null]);
    const record = (await (await fetch(`${app.url}/matches/${createMatch.id}/record`)).json()) as never;
    expect(verifyRecord(record)).toMatchObject({ ok: true, problems: [], notes: [] }); // the bots' seeds are their seats' defaults
    await expectReplayable(app, createMatch.id);
  });

  it.each([
    [{ seats: 4, botSeats: [0, 1] }, /botSeats must be seats 1 to 3/],
    [{ seats: 3, botSeats: [3] }, /botSeats must be seats 1 to 2/],
    [{ seats: 4, botSeats: [2, 2] }, /must not repeat/],
    [{ seats: 4, bots: 1, botSeats: [1, 3] }, /disagree/],
  ])('refuses botSeats %j with BAD_USER_INPUT, creating nothing', async (input, message) => {
    const carl = await app.player('carl');
    const { body } = await carl.raw(M_CREATE, { input });
    expect(body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(body.errors![0].message).toMatch(message);
    expect(await app.server.app.get(PrismaService).match.count({ where: { createdById: carl.id } })).toBe(0);
  });

  it('refuses a strategy that does not exist', async () => {
    const human = await app.player('bob');
    await expect(human.request(M_CREATE, { input: { seats: 2, bots: 1, botStrategy: 'CLAIRVOYANT' } })).rejects.toThrow(/BotStrategy/);
  });
});
