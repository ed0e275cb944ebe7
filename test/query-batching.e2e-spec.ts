import { parsePrometheus, sum } from '../bench/support/prometheus.js';
import { startTestApp, type TestApp } from './support/app.js';
import { M_CREATE, M_JOIN, type MatchT } from './support/fragments.js';

/** A history page asking for each match's rounds and each seat's stats: the N+1 shape. */
const Q_PAGE = `query($first: Int) { matches(first: $first) { edges { node {
  id rounds { number status moves { seq } } seats { index player { id stats { matchesPlayed roundsPlayed pointsScored } } }
} } } }`;

describe('query batching: a page costs the same statements whatever its size', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ METRICS: 'true', METRICS_TOKEN: 'metrics-token-for-the-tests' });
    for (let i = 0; i < 8; i++) {
      const a = await app.player(`a${i}`);
      const b = await app.player(`b${i}`);
      const { id } = (await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } })).createMatch;
      await b.request(M_JOIN, { id });
      if (i % 2) await a.request('mutation($id: ID!) { resignMatch(matchId: $id) { status } }', { id });
    }
  });
  afterAll(async () => {
    await app.close();
  });

  async function statementsFor(first: number): Promise<number> {
    const sql = async () =>
      sum(
        parsePrometheus(await (await fetch(`${app.url}/metrics`, { headers: { authorization: 'Bearer metrics-token-for-the-tests' } })).text()),
        'dominoes_sql_statements_total',
      );
    const before = await sql();
    // Anonymous: a token's look-up (once its cache entry expires) would count a statement of its own.
    const page = await app.anon.request<{ matches: { edges: { node: { rounds: unknown[]; seats: { player: { stats: unknown } | null }[] } }[] } }>(
      Q_PAGE,
      { first },
    );
    const after = await sql();
    expect(page.matches.edges).toHaveLength(first);
    for (const { node } of page.matches.edges) {
      expect(node.rounds.length).toBeGreaterThan(0);
      for (const s of node.seats) expect(s.player!.stats).toBeDefined();
    }
    return after - before;
  }

  it('Match.rounds and Player.stats are loaded once per page, not once per match or player', async () => {
    await statementsFor(8); // warm: the match cache, prepared plans
    const one = await statementsFor(1);
    const eight = await statementsFor(8);
    // Unbatched, eight matches would add 7 statements for rounds and 14 for stats over one match.
    expect(eight).toBe(one);
  });
});
