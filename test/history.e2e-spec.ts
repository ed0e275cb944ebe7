import { jest } from '@jest/globals';
import { startTestApp, type TestApp } from './support/app.js';
import { driveMatch, viewOf } from './support/driver.js';
import { M_CREATE, M_JOIN, type MatchT, type RoundT } from './support/fragments.js';
import type { GqlClient, GqlErrorShape } from './support/gql.js';
import { HistoryRepository } from '../src/history/history.repository.js';
import { verifyRecord } from '../src/history/verify-record.js';
import { recordValidator, reverify, type RecordT } from './support/history-verify.js';

const Q_HISTORY = `query($playerId: ID, $status: MatchStatus, $from: DateTime, $to: DateTime, $first: Int, $after: String) {
  matches(playerId: $playerId, status: $status, from: $from, to: $to, first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor }
    edges { cursor node { id status createdAt winner { index score } teams { index score } seats { index team player { id } } } }
  } }`;
const Q_STATS = `query { me { id stats { matchesPlayed matchesWon matchesLost winRate roundsPlayed pointsScored averagePointsPerRound roundsWonByDomino roundsWonByBlock biggestPlay } } }`;
const Q_LEADERS = `query($first: Int, $after: String) { leaderboard(first: $first, after: $after) {
  totalCount pageInfo { hasNextPage endCursor } edges { cursor node { rank player { id name } stats { matchesWon matchesPlayed } } } } }`;

type Node = {
  id: string;
  status: string;
  createdAt: string;
  winner: { index: number; score: number } | null;
  teams: { index: number; score: number }[];
  seats: { index: number; team: number; player: { id: string } | null }[];
};
type Page = { totalCount: number; pageInfo: { hasNextPage: boolean; endCursor: string | null }; edges: { cursor: string; node: Node }[] };

const BOARD = 'count openEnds { end pips } spinner { high low }';

/** One query that asks every round for the board after every seq of the match (other rounds answer null + BAD_USER_INPUT). */
function boardsQuery(seqs: number[]): string {
  const aliases = seqs.map((s) => `b${s}: boardAt(seq: ${s}) { ${BOARD} }`).join(' ');
  return `query($id: ID!) { match(id: $id) { rounds { number board { ${BOARD} } moves { seq type count } ${aliases} } } }`;
}

type BoardsRound = Pick<RoundT, 'number' | 'board'> & { moves: { seq: number; type: string; count: number | null }[] } & Record<
    string,
    RoundT['board'] | null
  >;

/** boardsQuery in pieces of 25 seqs (a query has at most GRAPHQL_MAX_ALIASES = 30 aliases), merged round by round. */
async function boardsOf(client: GqlClient, id: string, seqs: number[]): Promise<{ rounds: BoardsRound[]; errors: GqlErrorShape[] }> {
  let rounds: BoardsRound[] | null = null;
  const errors: GqlErrorShape[] = [];
  for (let i = 0; i < seqs.length; i += 25) {
    const { body } = await client.raw(boardsQuery(seqs.slice(i, i + 25)), { id });
    errors.push(...(body.errors ?? []));
    const part = (body.data as { match: { rounds: BoardsRound[] } }).match.rounds;
    rounds = rounds ? rounds.map((r, k) => ({ ...r, ...part[k] })) : part;
  }
  return { rounds: rounds ?? [], errors };
}

describe('match history', () => {
  let app: TestApp;
  let a: GqlClient, b: GqlClient, c: GqlClient;
  const finals = new Map<string, MatchT>();
  const created: string[] = []; // oldest first
  let waitingId: string;

  async function play(p0: GqlClient, p1: GqlClient, seed: number): Promise<string> {
    const { createMatch } = await p0.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2, rules: { targetScore: 100 } } });
    created.push(createMatch.id);
    await p1.request<{ joinMatch: MatchT }>(M_JOIN, { id: createMatch.id });
    const { final } = await driveMatch(
      new Map([
        [0, p0],
        [1, p1],
      ]),
      createMatch.id,
      seed,
    );
    finals.set(final.id, final);
    return final.id;
  }

  beforeAll(async () => {
    app = await startTestApp();
    [a, b, c] = await Promise.all([app.player('ann'), app.player('bob'), app.player('cy')]);
    await play(a, b, 1);
    await play(b, a, 2);
    await play(a, c, 3);
    const { createMatch } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2, rules: { targetScore: 100 } } });
    waitingId = createMatch.id;
    created.push(waitingId);
  });
  afterAll(async () => {
    await app.close();
  });

  it("lists each player's matches newest first, with results, and pages by cursor", async () => {
    const all = (await a.request<{ matches: Page }>(Q_HISTORY, { playerId: a.id, first: 100 })).matches;
    expect(all.totalCount).toBe(4);
    expect(all.edges.map((e) => e.node.id)).toEqual([...created].reverse());
    for (const { node } of all.edges) {
      const final = finals.get(node.id);
      if (!final) {
        expect(node.status).toBe('WAITING');
        continue;
      }
      expect(node.status).toBe('FINISHED');
      expect(node.winner!.index).toBe(final.winner!.index);
      expect(node.teams.map((t) => t.score)).toEqual(final.teams.map((t) => t.score));
      expect(node.seats.some((s) => s.player?.id === a.id)).toBe(true);
    }
    // Pages of 3 then 1, cursors chaining.
    const p1 = (await a.request<{ matches: Page }>(Q_HISTORY, { playerId: a.id, first: 3 })).matches;
    expect(p1.edges).toHaveLength(3);
    expect(p1.pageInfo.hasNextPage).toBe(true);
    expect(p1.totalCount).toBe(4);
    const p2 = (await a.request<{ matches: Page }>(Q_HISTORY, { playerId: a.id, first: 3, after: p1.pageInfo.endCursor })).matches;
    expect(p2.edges.map((e) => e.node.id)).toEqual([created[0]]);
    expect(p2.pageInfo.hasNextPage).toBe(false);
    // A match created after a cursor was handed out does not shift the next page.
    const { createMatch: newer } = await c.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
    await a.request(M_JOIN, { id: newer.id });
    const again = (await a.request<{ matches: Page }>(Q_HISTORY, { playerId: a.id, first: 3, after: p1.pageInfo.endCursor })).matches;
    expect(again.edges.map((e) => e.node.id)).toEqual([created[0]]);
    expect(again.totalCount).toBe(5);
    // Filters: status, and [from, to) on createdAt.
    const finished = (await a.request<{ matches: Page }>(Q_HISTORY, { playerId: a.id, status: 'FINISHED' })).matches;
    expect(finished.totalCount).toBe(3);
    expect(finished.edges.map((e) => e.node.id)).toEqual(created.slice(0, 3).reverse());
    const inProgress = (await a.request<{ matches: Page }>(Q_HISTORY, { playerId: a.id, status: 'IN_PROGRESS' })).matches;
    expect(inProgress.edges.map((e) => e.node.id)).toEqual([newer.id]);
    const times = all.edges.map((e) => e.node.createdAt).reverse(); // oldest first
    const window = (await a.request<{ matches: Page }>(Q_HISTORY, { playerId: a.id, from: times[1], to: times[3] })).matches;
    expect(window.edges.map((e) => e.node.id)).toEqual([created[2], created[1]]);
    expect(window.totalCount).toBe(2);
    // Other players see only their own.
    const bobs = (await b.request<{ matches: Page }>(Q_HISTORY, { playerId: b.id })).matches;
    expect(bobs.edges.map((e) => e.node.id)).toEqual([created[1], created[0]]);
    const cys = (await c.request<{ matches: Page }>(Q_HISTORY, { playerId: c.id })).matches;
    expect(cys.edges.map((e) => e.node.id)).toEqual([newer.id, created[2]]);
    expect(await a.errorCode(Q_HISTORY, { playerId: a.id, after: 'nonsense' })).toBe('BAD_USER_INPUT');
    // Leaving a WAITING match takes it out of the leaver's history.
    const { createMatch: left } = await c.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
    expect((await c.request<{ matches: Page }>(Q_HISTORY, { playerId: c.id })).matches.edges[0].node.id).toBe(left.id);
    await c.request(`mutation($id: ID!) { leaveMatch(matchId: $id) { status } }`, { id: left.id });
    expect((await c.request<{ matches: Page }>(Q_HISTORY, { playerId: c.id })).matches.edges.map((e) => e.node.id)).toEqual([newer.id, created[2]]);
  });

  it('counts the matches (totalCount) only for a client that selects it, directly or through a fragment', async () => {
    const pages = jest.spyOn(app.server.app.get(HistoryRepository), 'page');
    try {
      const ids = (r: { matches: { edges: { node: { id: string } }[] } }) => r.matches.edges.map((e) => e.node.id);
      const bare = await a.request<{ matches: { edges: { node: { id: string } }[] } }>(
        `query($p: ID) { matches(playerId: $p, first: 100) { edges { node { id } } } }`,
        { p: a.id },
      );
      const counted = await a.request<{ matches: { n: number; edges: { node: { id: string } }[] } }>(
        `query($p: ID) { matches(playerId: $p, first: 100) { ...Counted edges { node { id } } } }
         fragment Counted on MatchConnection { n: totalCount }`,
        { p: a.id },
      );
      // Every match of ann's fits one page: the count is the page's length.
      expect(ids(bare).length).toBeGreaterThanOrEqual(created.length);
      expect(ids(counted)).toEqual(ids(bare));
      expect(counted.matches.n).toBe(ids(bare).length);
      // The fourth argument says whether the repository counts: the first page did not ask.
      expect(pages.mock.calls.map((call) => call[3])).toEqual([false, true]);
    } finally {
      pages.mockRestore();
    }
  });

  it('replays every round move by move with boardAt, agreeing with the moves and the final board', async () => {
    for (const [id, final] of finals) {
      const seqs = final.rounds.flatMap((r) => r.moves.map((m) => m.seq));
      const { rounds, errors } = await boardsOf(a, id, seqs);
      const outside = seqs.length * rounds.length - seqs.length;
      expect(errors).toHaveLength(outside);
      expect(errors.every((e) => e.extensions?.code === 'BAD_USER_INPUT')).toBe(true);
      for (const round of rounds) {
        let count = 0;
        for (const m of round.moves) {
          const board = round[`b${m.seq}`]!;
          expect(board).not.toBeNull();
          if (m.type === 'PLAY') count = m.count!;
          expect(board.count).toBe(count); // C after a PLAY; unchanged by DRAW/PASS
        }
        expect(round[`b${round.moves.at(-1)!.seq}`]).toEqual(round.board);
        for (const s of seqs.filter((s) => !round.moves.some((m) => m.seq === s))) expect(round[`b${s}`]).toBeNull();
      }
    }
  });

  it('replays one round asked by its number, with no error from the others', async () => {
    const [id, final] = [...finals].find(([, f]) => f.rounds.length >= 2)!;
    const second = final.rounds[1];
    const seqs = second.moves.map((m) => m.seq);
    const aliases = seqs
      .slice(0, 25)
      .map((s) => `b${s}: boardAt(seq: ${s}) { ${BOARD} }`)
      .join(' ');
    const res = await a.raw(`query($id: ID!) { match(id: $id) { rounds(number: 2) { number ${aliases} } } }`, { id });
    expect(res.body.errors).toBeUndefined();
    const rounds = (res.body.data as { match: { rounds: Record<string, unknown>[] } }).match.rounds;
    expect(rounds.map((r) => r.number)).toEqual([2]);
    for (const s of seqs.slice(0, 25)) expect(rounds[0][`b${s}`]).not.toBeNull();
    // A round that has not begun: none.
    const none = await a.request<{ match: { rounds: unknown[] } }>(
      `query($id: ID!) { match(id: $id) { rounds(number: ${final.rounds.length + 1}) { number } } }`,
      { id },
    );
    expect(none.match.rounds).toEqual([]);
  });

  it('replays the live round up to the current move', async () => {
    const { createMatch } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
    await b.request(M_JOIN, { id: createMatch.id });
    const q = `query($id: ID!) { match(id: $id) { turn currentRound { board { ${BOARD} } moves { seq } } legalMoves { tile { high low } end } } }`;
    const toMove = async () => {
      for (const p of [a, b]) {
        const m = (await p.request<{ match: { turn: number; legalMoves: { tile: unknown; end: unknown }[] } }>(q, { id: createMatch.id })).match;
        if (m.legalMoves.length > 0) return { p, m };
      }
      return null;
    };
    const mover = await toMove();
    expect(mover).not.toBeNull();
    await mover!.p.request(`mutation($input: PlayTileInput!) { playTile(input: $input) { version } }`, {
      input: { matchId: createMatch.id, tile: mover!.m.legalMoves[0].tile, end: mover!.m.legalMoves[0].end },
    });
    const live = (await c.request<{ match: { currentRound: { board: unknown; moves: { seq: number }[] } } }>(q, { id: createMatch.id })).match
      .currentRound;
    const last = live.moves.at(-1)!.seq;
    const r = await c.request<{ match: { currentRound: { boardAt: unknown } } }>(
      `query($id: ID!) { match(id: $id) { currentRound { boardAt(seq: ${last}) { ${BOARD} } } } }`,
      { id: createMatch.id },
    );
    expect(r.match.currentRound.boardAt).toEqual(live.board);
    const { body } = await c.raw(`query($id: ID!) { match(id: $id) { currentRound { boardAt(seq: ${last + 1}) { count } } } }`, {
      id: createMatch.id,
    });
    expect(body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('keeps stats equal to what the moves imply, and ranks players by wins', async () => {
    for (const p of [a, b, c]) {
      const expected = {
        matchesPlayed: 0,
        matchesWon: 0,
        roundsPlayed: 0,
        pointsScored: 0,
        roundsWonByDomino: 0,
        roundsWonByBlock: 0,
        biggestPlay: 0,
      };
      for (const final of finals.values()) {
        const seat = final.seats.find((s) => s.player?.id === p.id);
        if (!seat) continue;
        expected.matchesPlayed++;
        if (final.winner!.index === seat.team) expected.matchesWon++;
        for (const r of final.rounds) {
          expected.roundsPlayed++;
          for (const m of r.moves) {
            if (m.type !== 'PLAY' || m.seat !== seat.index) continue;
            expected.pointsScored += m.points;
            expected.biggestPlay = Math.max(expected.biggestPlay, m.points);
          }
          // 2 seats, one per team: a side's bonus is its seat's.
          expected.pointsScored += r.result!.awarded[seat.team];
          const pips = r.result!.hands.map((h) => h.tiles.reduce((s, t) => s + t.high + t.low, 0));
          if (r.result!.end === 'DOMINO' && pips[seat.index] === 0 && r.result!.hands[seat.index].tiles.length === 0) expected.roundsWonByDomino++;
          if (r.result!.end === 'BLOCKED' && pips[seat.index] < pips[1 - seat.index]) expected.roundsWonByBlock++;
        }
      }
      const { me } = await p.request<{ me: { stats: Record<string, number> } }>(Q_STATS);
      expect(me.stats).toMatchObject(expected);
      expect(me.stats.matchesLost).toBe(expected.matchesPlayed - expected.matchesWon);
      expect(me.stats.winRate).toBeCloseTo(expected.matchesWon / expected.matchesPlayed);
      expect(me.stats.averagePointsPerRound).toBeCloseTo(expected.pointsScored / expected.roundsPlayed);
    }
    // Each match's points split over its seats add up to its final scores.
    const total = [...finals.values()].reduce((s, f) => s + f.teams.reduce((x, t) => x + t.score, 0), 0);
    const stats = await Promise.all(
      [a, b, c].map(async (p) => (await p.request<{ me: { stats: { pointsScored: number } } }>(Q_STATS)).me.stats.pointsScored),
    );
    expect(stats.reduce((x, y) => x + y, 0)).toBe(total);

    const board = (
      await app.anon.request<{
        leaderboard: {
          totalCount: number;
          pageInfo: Page['pageInfo'];
          edges: { cursor: string; node: { rank: number; player: { id: string }; stats: { matchesWon: number; matchesPlayed: number } } }[];
        };
      }>(Q_LEADERS, { first: 2 })
    ).leaderboard;
    expect(board.totalCount).toBe(3);
    expect(board.pageInfo.hasNextPage).toBe(true);
    const rest = (await app.anon.request<{ leaderboard: typeof board }>(Q_LEADERS, { first: 2, after: board.pageInfo.endCursor })).leaderboard;
    expect(rest.pageInfo.hasNextPage).toBe(false);
    const nodes = [...board.edges, ...rest.edges].map((e) => e.node);
    expect(nodes.map((n) => n.rank)).toEqual([1, 2, 3]);
    expect(new Set(nodes.map((n) => n.player.id))).toEqual(new Set([a.id, b.id, c.id]));
    for (let i = 1; i < nodes.length; i++) {
      const [x, y] = [nodes[i - 1].stats, nodes[i].stats];
      expect(
        x.matchesWon > y.matchesWon ||
          (x.matchesWon === y.matchesWon &&
            (x.matchesPlayed < y.matchesPlayed || (x.matchesPlayed === y.matchesPlayed && nodes[i - 1].player.id < nodes[i].player.id))),
      ).toBe(true);
    }
  });

  it('exports finished matches as records that validate and re-verify from the record alone', async () => {
    const validate = recordValidator();
    for (const [id, final] of finals) {
      const res = await fetch(`${app.url}/matches/${id}/record`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
      const rec = (await res.json()) as RecordT;
      const v = validate(rec);
      expect(v.errors).toBeNull();
      expect(v.ok).toBe(true);
      expect(rec.format).toBe('straight-dominoes/match-record');
      expect(rec.version).toBe(2);
      expect(verifyRecord(rec).problems).toEqual([]);
      const { problems, totals } = reverify(rec);
      expect(problems).toEqual([]);
      expect(totals).toEqual(final.teams.map((t) => t.score));
      expect(rec.winner).toBe(final.winner!.index);
      expect(rec.rounds.map((r) => r.moves)).toEqual(final.rounds.map((r) => r.moves.map(({ round: _r, ...m }) => m)));
      const text = JSON.stringify(rec);
      expect(text).not.toMatch(/"seed"|boneyard/i);
    }
    // A tampered record fails the re-verification.
    const rec = (await (await fetch(`${app.url}/matches/${created[0]}/record`)).json()) as RecordT;
    // Any play: the re-verification recomputes every play's points (a first round may score none).
    const play = rec.rounds[0].moves.find((m) => m.type === 'PLAY')!;
    play.points += 5;
    expect(reverify(rec).problems.length).toBeGreaterThan(0);
    // A resigned match: its cut-short round is exported UNFINISHED, nothing awarded, and (the
    // match being over) with its draws' tiles and its hands, as GraphQL shows it.
    const { createMatch: r } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
    await b.request(M_JOIN, { id: r.id });
    await a.request(`mutation($id: ID!) { resignMatch(matchId: $id) { status } }`, { id: r.id });
    const resigned = (await (await fetch(`${app.url}/matches/${r.id}/record`)).json()) as RecordT & { ending: string };
    expect(validate(resigned).errors).toBeNull();
    expect(resigned.ending).toBe('RESIGNED');
    // Who forfeited and why: the resigning player's seat.
    const { match: resigner } = await a.request<{ match: { mySeat: number } }>('query($id: ID!) { match(id: $id) { mySeat } }', { id: r.id });
    expect((resigned as RecordT & { forfeit?: unknown }).forfeit).toEqual({ cause: 'RESIGNED', seat: resigner.mySeat });
    const cut = resigned.rounds.at(-1)!;
    expect(cut.status).toBe('UNFINISHED');
    expect(cut.moves.filter((m) => m.type === 'DRAW').every((m) => m.tile !== null)).toBe(true);
    const shown = (await viewOf(b, r.id)).currentRound!;
    expect(shown.status).toBe('UNFINISHED');
    expect(cut.result).toEqual({ ...shown.result, dominoSeat: null });
    expect(cut.result!.hands.map((h) => h.tiles.length)).toEqual(shown.result!.hands.map((h) => h.tiles.length));
    expect(reverify(resigned).problems).toEqual([]);
    expect(verifyRecord(resigned).problems).toEqual([]);
    expect(resigned.winner).toBe(1);
    const { me } = await b.request<{ me: { stats: { matchesWon: number } } }>(Q_STATS);
    const bobWins = [...finals.values()].filter((f) => f.seats[f.winner!.index].player?.id === b.id).length;
    // Resigned before its first round ended: no credit (else two accounts farm wins by create–join–resign).
    expect(me.stats.matchesWon).toBe(bobWins);
    // Unfinished, unknown and malformed ids.
    const waiting = await fetch(`${app.url}/matches/${waitingId}/record`);
    expect(waiting.status).toBe(409);
    // A refusal must not be cached: the match will have a record once it finishes.
    expect(waiting.headers.get('cache-control')).toBe('no-store');
    expect(await waiting.json()).toMatchObject({ code: 'MATCH_NOT_IN_PROGRESS' });
    expect((await fetch(`${app.url}/matches/00000000-0000-4000-8000-000000000000/record`)).status).toBe(404);
    expect((await fetch(`${app.url}/matches/nope/record`)).status).toBe(400);
  });
});
