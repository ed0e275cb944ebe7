import { startTestApp, type TestApp } from './support/app.js';
import { clockedDuel } from './support/clocks.js';
import { driveMatch } from './support/driver.js';
import { eventually } from './support/eventually.js';
import type { GqlClient } from './support/gql.js';

/** Match.ending: why a finished match is over, for every way it can end, alone and in a page of matches. */
describe('how a match ended (Match.ending)', () => {
  let app: TestApp;
  beforeAll(async () => {
    // Clocks of a second, swept often: a forfeit on time happens while the test waits.
    app = await startTestApp({ CLOCK_MIN_SECONDS: '1', SWEEP_INTERVAL_MS: '50' });
  });
  afterAll(() => app.close());

  type Ending = { cause: string; seat: number | null } | null;
  type Ended = { status: string; ending: Ending; winner: { seats: number[] } | null };
  const ENDED = 'query($id: ID!) { match(id: $id) { status ending { cause seat } winner { seats } } }';
  const ended = async (client: GqlClient, id: string) => (await client.request<{ match: Ended }>(ENDED, { id })).match;

  async function duel(a: GqlClient, b: GqlClient, rules: Record<string, unknown> = {}): Promise<string> {
    const { createMatch } = await a.request<{ createMatch: { id: string } }>('mutation($i: CreateMatchInput!) { createMatch(input: $i) { id } }', {
      i: { seats: 2, rules },
    });
    await b.request('mutation($id: ID!) { joinMatch(matchId: $id) { id } }', { id: createMatch.id });
    return createMatch.id;
  }

  it('is null while the match waits or is played, and for one abandoned before its start', async () => {
    const [a, b] = [await app.player('a'), await app.player('b')];
    const { createMatch } = await a.request<{ createMatch: { id: string } }>('mutation { createMatch(input: { seats: 2 }) { id } }');
    expect(await ended(a, createMatch.id)).toMatchObject({ status: 'WAITING', ending: null });
    const playing = await duel(a, b);
    expect(await ended(b, playing)).toMatchObject({ status: 'IN_PROGRESS', ending: null });
    await a.request('mutation($id: ID!) { leaveMatch(matchId: $id) { id } }', { id: createMatch.id });
    expect(await ended(a, createMatch.id)).toMatchObject({ status: 'ABANDONED', ending: null });
  });

  it('names the seat that resigned, whose side lost', async () => {
    const [a, b] = [await app.player('a'), await app.player('b')];
    const id = await duel(a, b);
    await b.request('mutation($id: ID!) { resignMatch(matchId: $id) { id } }', { id });
    const m = await ended(app.anon, id);
    expect(m).toEqual({ status: 'FINISHED', ending: { cause: 'RESIGNED', seat: 1 }, winner: { seats: [0] } });
  });

  it('names the seat whose time ran out, whose side lost: at once (FORFEIT) or at the forfeitAfter-th timeout (BOT_PLAYS)', async () => {
    for (const clock of [
      { kind: 'PER_MOVE', moveSeconds: 1, onTimeout: 'FORFEIT' },
      { kind: 'PER_MOVE', moveSeconds: 1, onTimeout: 'BOT_PLAYS', forfeitAfter: 2 },
    ]) {
      const [a, b] = [await app.player('a'), await app.player('b')];
      const id = await clockedDuel(a, b, clock);
      const m = await eventually(
        () => ended(a, id),
        (x) => x.status === 'FINISHED',
        'the forfeit on time',
      );
      expect(m.ending?.cause).toBe('TIMED_OUT');
      expect(m.winner!.seats).toEqual([1 - m.ending!.seat!]);
    }
  });

  it('says a side reached the target when the match was played out, and each match of a page its own ending', async () => {
    const [a, b] = [await app.player('a'), await app.player('b')];
    const played = await duel(a, b, { targetScore: 25 });
    await driveMatch(
      new Map([
        [0, a],
        [1, b],
      ]),
      played,
    );
    expect(await ended(a, played)).toMatchObject({ status: 'FINISHED', ending: { cause: 'TARGET_REACHED', seat: null } });
    // Beside a resigned one and one still played, in a list: each its own ending.
    const resigned = await duel(a, b);
    await a.request('mutation($id: ID!) { resignMatch(matchId: $id) { id } }', { id: resigned });
    const live = await duel(a, b);
    const { matches } = await a.request<{ matches: { edges: { node: { id: string; ending: Ending } }[] } }>(
      'query($p: ID!) { matches(playerId: $p, first: 10) { edges { node { id ending { cause seat } } } } }',
      { p: a.me!.id },
    );
    const byId = new Map(matches.edges.map((e) => [e.node.id, e.node.ending]));
    expect([byId.get(played), byId.get(resigned), byId.get(live)]).toEqual([
      { cause: 'TARGET_REACHED', seat: null },
      { cause: 'RESIGNED', seat: 0 },
      null,
    ]);
  });
});
