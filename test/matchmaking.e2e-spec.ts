import { PrismaService } from '../src/database/prisma.service.js';
import { verifyRecord } from '../src/history/verify-record.js';
import { newInviteCode } from '../src/matches/match-settings.js';
import { startTestApp, type TestApp } from './support/app.js';
import { driveMatch, viewOf } from './support/driver.js';
import { M_CREATE, M_JOIN, type MatchT } from './support/fragments.js';
import type { GqlClient } from './support/gql.js';
import { recordValidator } from './support/history-verify.js';
import { expectReplayable } from './support/replay-check.js';
import { Subscriber } from './support/ws.js';

const M_INVITE = `mutation($code: String!) { joinMatchByInvite(code: $code) { id status mySeat inviteCode } }`;
const M_REMATCH = `mutation($id: ID!) { rematch(matchId: $id) { id status mySeat private rematchOfId dealCommitment seats { index isBot player { id } } } }`;
const Q_INVITE = `query($id: ID!) { match(id: $id) { inviteCode private } }`;
const Q_OPEN = `query($first: Int, $after: String) {
  openMatches(first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { id status createdAt rules { targetScore } } } }
}`;
const Q_LINKS = `query($id: ID!) { match(id: $id) { status rematch { id status } rematchOfId } }`;
const S_EVENTS = `subscription($id: ID!, $after: Int) { matchEvents(matchId: $id, afterSeq: $after) { seq type } }`;

type Open = { openMatches: { totalCount: number; pageInfo: { hasNextPage: boolean; endCursor: string | null }; edges: { node: { id: string } }[] } };

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    return (e as { code?: string }).code;
  }
}

/** Every stored event of a match, from the table (for matches still in progress, whose feed stays open). */
async function storedEvents(app: TestApp, matchId: string): Promise<string[]> {
  const rows = await app.server.app.get(PrismaService).matchEvent.findMany({ where: { matchId }, orderBy: { seq: 'asc' } });
  return rows.map((r) => r.type);
}

/** Every stored event of a match, read through the public feed (it completes once the match is over). */
async function eventsOf(app: TestApp, matchId: string): Promise<string[]> {
  const sub = new Subscriber<{ seq: number; type: string }>(app.url).subscribe(S_EVENTS, { id: matchId, after: 0 }, (d) => d.matchEvents as never);
  const until = Date.now() + 20_000;
  while (!sub.completed && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  await sub.close();
  return sub.received.map((e) => e.type);
}

describe('finding opponents', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('a private match: its players see the invite code, joinMatch refuses it, the code seats; never listed', async () => {
    const ann = await app.player('ann');
    const bob = await app.player('bob');
    const cat = await app.player('cat');
    const { createMatch } = await ann.request<{ createMatch: MatchT & { id: string } }>(M_CREATE, { input: { seats: 2, private: true } });
    const id = createMatch.id;
    const mine = (await ann.request<{ match: { inviteCode: string; private: boolean } }>(Q_INVITE, { id })).match;
    expect(mine.private).toBe(true);
    expect(mine.inviteCode).toMatch(/^[0-9A-Z]{16}$/);
    expect((await bob.request<{ match: { inviteCode: string | null } }>(Q_INVITE, { id })).match.inviteCode).toBeNull();
    expect((await app.anon.request<{ match: { inviteCode: string | null } }>(Q_INVITE, { id })).match.inviteCode).toBeNull();

    expect(await codeOf(bob.request(M_JOIN, { id }))).toBe('FORBIDDEN');
    const open = await bob.request<Open>(Q_OPEN, { first: 100 });
    expect(open.openMatches.edges.map((e) => e.node.id)).not.toContain(id);
    const waiting = await bob.request<{ matches: { edges: { node: { id: string } }[] } }>(
      `{ matches(status: WAITING, first: 100) { edges { node { id } } } }`,
    );
    expect(waiting.matches.edges.map((e) => e.node.id)).not.toContain(id);
    const annsOwn = await ann.request<{ matches: { edges: { node: { id: string } }[] } }>(
      `query($p: ID!) { matches(playerId: $p) { edges { node { id } } } }`,
      {
        p: ann.id,
      },
    );
    expect(annsOwn.matches.edges.map((e) => e.node.id)).toContain(id);

    expect(await codeOf(bob.request(M_INVITE, { code: 'NOSUCHCODE000000' }))).toBe('NOT_FOUND');
    expect(await codeOf(bob.request(M_INVITE, { code: 'not a code\u0000' }))).toBe('BAD_USER_INPUT');
    // Typed in lower case with a dash, as a person might.
    const typed = `${mine.inviteCode.slice(0, 8).toLowerCase()}-${mine.inviteCode.slice(8).toLowerCase()}`;
    const joined = (
      await bob.request<{ joinMatchByInvite: { id: string; status: string; mySeat: number; inviteCode: string } }>(M_INVITE, { code: typed })
    ).joinMatchByInvite;
    expect(joined).toEqual({ id, status: 'IN_PROGRESS', mySeat: 1, inviteCode: mine.inviteCode });
    // A used code: the match has no free seat any more.
    expect(await codeOf(cat.request(M_INVITE, { code: mine.inviteCode }))).toBe('MATCH_FULL');
  });

  it('an invite code joins a public match too', async () => {
    const ann = await app.player();
    const bob = await app.player();
    const { createMatch } = await ann.request<{ createMatch: { id: string } }>(M_CREATE, { input: { seats: 3 } });
    const code = (await ann.request<{ match: { inviteCode: string } }>(Q_INVITE, { id: createMatch.id })).match.inviteCode;
    const joined = (await bob.request<{ joinMatchByInvite: { status: string; mySeat: number } }>(M_INVITE, { code })).joinMatchByInvite;
    expect(joined).toMatchObject({ status: 'WAITING', mySeat: 1 });
  });

  it('an invite code typed with look-alikes joins: O is read as 0, I and L as 1 (Crockford base32)', async () => {
    const ann = await app.player();
    const bob = await app.player();
    const { createMatch } = await ann.request<{ createMatch: { id: string } }>(M_CREATE, { input: { seats: 2, private: true } });
    // Codes are random: this one is given a 0 and two 1s to type as letters.
    const code = `011${newInviteCode().slice(3)}`;
    await app.server.app.get(PrismaService).match.update({ where: { id: createMatch.id }, data: { inviteCode: code } });
    const joined = (await bob.request<{ joinMatchByInvite: { id: string; mySeat: number } }>(M_INVITE, { code: `oIl-${code.slice(3)}` }))
      .joinMatchByInvite;
    expect(joined).toMatchObject({ id: createMatch.id, mySeat: 1 });
  });

  it('partners choose their seats: a friend sits opposite the creator, a stranger asking for a taken seat is told the free ones', async () => {
    const [ann, bob, cat, dan] = await Promise.all([app.player(), app.player(), app.player(), app.player()]);
    const { createMatch } = await ann.request<{ createMatch: { id: string } }>(M_CREATE, { input: { seats: 4, partnerships: true, private: true } });
    const id = createMatch.id;
    const code = (await ann.request<{ match: { inviteCode: string } }>(Q_INVITE, { id })).match.inviteCode;
    const M_INVITE_SEAT = `mutation($code: String!, $seat: Int) { joinMatchByInvite(code: $code, seat: $seat) { mySeat } }`;
    // Bob takes seat 2: ann's partner (teams {0,2} and {1,3}).
    expect((await bob.request<{ joinMatchByInvite: { mySeat: number } }>(M_INVITE_SEAT, { code, seat: 2 })).joinMatchByInvite.mySeat).toBe(2);
    const taken = await cat.raw(M_INVITE_SEAT, { code, seat: 2 });
    expect(taken.body.errors?.[0].extensions).toMatchObject({ code: 'MATCH_FULL', freeSeats: [1, 3] });
    expect((await cat.raw(M_INVITE_SEAT, { code, seat: 4 })).body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect((await cat.request<{ joinMatchByInvite: { mySeat: number } }>(M_INVITE_SEAT, { code, seat: 3 })).joinMatchByInvite.mySeat).toBe(3);
    expect((await dan.request<{ joinMatchByInvite: { mySeat: number } }>(M_INVITE_SEAT, { code })).joinMatchByInvite.mySeat).toBe(1);
    const started = await viewOf(ann, id);
    expect(started.status).toBe('IN_PROGRESS');
    expect(started.seats.map((s) => [s.index, s.team, s.player?.id])).toEqual([
      [0, 0, ann.id],
      [1, 1, dan.id],
      [2, 0, bob.id],
      [3, 1, cat.id],
    ]);
    // joinMatch takes a seat too, by id.
    const pub = (await ann.request<{ createMatch: { id: string } }>(M_CREATE, { input: { seats: 3 } })).createMatch.id;
    const M_JOIN_SEAT = `mutation($id: ID!, $seat: Int) { joinMatch(matchId: $id, seat: $seat) { mySeat } }`;
    expect((await bob.request<{ joinMatch: { mySeat: number } }>(M_JOIN_SEAT, { id: pub, seat: 2 })).joinMatch.mySeat).toBe(2);
  });

  it('the feed says which seat each player took, left and set the seed of, so a catch-up can place them', async () => {
    const [ann, bob, cat] = [await app.player(), await app.player(), await app.player()];
    const { createMatch } = await ann.request<{ createMatch: { id: string } }>(M_CREATE, { input: { seats: 3 } });
    const id = createMatch.id;
    await bob.request(M_JOIN, { id });
    await ann.request('mutation($id: ID!) { setClientSeed(matchId: $id, clientSeed: "ann-2") { id } }', { id });
    await ann.request('mutation($id: ID!) { leaveMatch(matchId: $id) { id } }', { id });
    await cat.request(M_JOIN, { id }); // the first free seat: the one ann left
    const sub = new Subscriber<{ type: string; seat: number | null }>(app.url).subscribe(
      'subscription($id: ID!) { matchEvents(matchId: $id, afterSeq: 0) { type seat } }',
      { id },
      (d) => d.matchEvents as never,
    );
    await sub.until((r) => r.length >= 5);
    await sub.close();
    expect(sub.received).toEqual([
      { type: 'PLAYER_JOINED', seat: 0 },
      { type: 'PLAYER_JOINED', seat: 1 },
      { type: 'CLIENT_SEED_SET', seat: 0 },
      { type: 'PLAYER_LEFT', seat: 0 },
      { type: 'PLAYER_JOINED', seat: 0 },
    ]);
  });

  it('openMatches: public WAITING matches with a free seat, oldest first, page by page, with their rules', async () => {
    const fresh = await startTestApp();
    try {
      const players = await Promise.all([1, 2, 3, 4, 5].map(() => fresh.player()));
      const ids: string[] = [];
      for (const [i, p] of players.slice(0, 3).entries()) {
        const { createMatch } = await p.request<{ createMatch: { id: string } }>(M_CREATE, { input: { seats: 3, rules: { targetScore: 100 + i } } });
        ids.push(createMatch.id);
      }
      await players[3].request(M_CREATE, { input: { seats: 2, private: true } }); // never listed
      const full = await players[3].request<{ createMatch: { id: string } }>(M_CREATE, { input: { seats: 2 } });
      await players[4].request(M_JOIN, { id: full.createMatch.id }); // started: no longer open
      await players[4].request(M_CREATE, { input: { seats: 2, bots: 1 } }); // started at once: never open

      const first = (await fresh.anon.request<Open>(Q_OPEN, { first: 2 })).openMatches;
      expect(first.totalCount).toBe(3);
      expect(first.pageInfo.hasNextPage).toBe(true);
      const second = (await fresh.anon.request<Open>(Q_OPEN, { first: 2, after: first.pageInfo.endCursor })).openMatches;
      expect(second.pageInfo.hasNextPage).toBe(false);
      expect([...first.edges, ...second.edges].map((e) => e.node.id)).toEqual(ids);
      const all = await fresh.anon.request<{ openMatches: { edges: { node: { status: string; rules: { targetScore: number } } }[] } }>(Q_OPEN, {});
      expect(all.openMatches.edges.map((e) => [e.node.status, e.node.rules.targetScore])).toEqual([
        ['WAITING', 100],
        ['WAITING', 101],
        ['WAITING', 102],
      ]);
      expect(await codeOf(fresh.anon.request(Q_OPEN, { first: 0 }))).toBe('BAD_USER_INPUT');
      expect(await codeOf(fresh.anon.request(Q_OPEN, { after: 'nope' }))).toBe('BAD_USER_INPUT');
    } finally {
      await fresh.close();
    }
  });
});

describe('expiry of WAITING matches nobody joins', () => {
  let app: TestApp;
  beforeAll(async () => {
    // 0.0005 h = 1.8 s; sweeps every 50 ms.
    app = await startTestApp({ OPEN_MATCH_TTL_HOURS: '0.0005', SWEEP_INTERVAL_MS: '50' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('expires: ABANDONED, MATCH_EXPIRED on its feed, its player told on myTurns, off the open list', async () => {
    const ann = await app.player();
    const turns = new Subscriber<{ id: string; status: string }>(app.url, ann.token).subscribe(
      'subscription { myTurns { id status } }',
      {},
      (d) => d.myTurns as never,
    );
    const { createMatch } = await ann.request<{ createMatch: { id: string } }>(M_CREATE, { input: { seats: 3 } });
    await turns.until((r) => r.some((m) => m.id === createMatch.id && m.status === 'ABANDONED'));
    await turns.close();
    expect((await viewOf(ann, createMatch.id)).status).toBe('ABANDONED');
    expect(await eventsOf(app, createMatch.id)).toEqual(['PLAYER_JOINED', 'MATCH_EXPIRED']);
    expect((await ann.request<Open>(Q_OPEN, {})).openMatches.edges.map((e) => e.node.id)).not.toContain(createMatch.id);
    const bob = await app.player();
    expect(await codeOf(bob.request(M_JOIN, { id: createMatch.id }))).toBe('MATCH_NOT_IN_PROGRESS');
  });

  it('a join racing the expiry: exactly one of them applies (40 trials)', async () => {
    const outcomes = { joined: 0, expired: 0 };
    // Players first, one after another: 80 registrations in one burst only load the server.
    const pairs: { ann: GqlClient; bob: GqlClient }[] = [];
    for (let i = 0; i < 40; i++) pairs.push({ ann: await app.player(), bob: await app.player() });
    const trials = await Promise.all(
      pairs.map(async ({ ann, bob }, i) => {
        const { createMatch } = await ann.request<{ createMatch: { id: string } }>(M_CREATE, { input: { seats: 2 } });
        // Joins spread over 1.2–1.8 s after creation, around the time to live, so both orders come up.
        await new Promise((r) => setTimeout(r, 1200 + i * 15));
        const refused = await codeOf(bob.request(M_JOIN, { id: createMatch.id }));
        return { id: createMatch.id, refused };
      }),
    );
    // Let every due expiry run, then check each match's whole story.
    await new Promise((r) => setTimeout(r, 2500));
    for (const t of trials) {
      const events = await storedEvents(app, t.id);
      const status = (await viewOf(app.anon, t.id)).status;
      if (t.refused === undefined) {
        outcomes.joined++;
        expect({ status, expired: events.includes('MATCH_EXPIRED') }).toEqual({ status: 'IN_PROGRESS', expired: false });
      } else {
        outcomes.expired++;
        expect({ refused: t.refused, status, events }).toEqual({
          refused: 'MATCH_NOT_IN_PROGRESS',
          status: 'ABANDONED',
          events: ['PLAYER_JOINED', 'MATCH_EXPIRED'],
        });
      }
    }
    expect(outcomes.joined + outcomes.expired).toBe(40);
    console.log(`join vs expiry: ${outcomes.joined} joined first, ${outcomes.expired} expired first`);
  });
});

describe('rematch (R24)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  /** A 2-seat match played to its end; target 30, so a few plays decide it. */
  async function finishedMatch(
    rules: Record<string, unknown> = {},
  ): Promise<{ id: string; bySeat: Map<number, GqlClient>; ann: GqlClient; bob: GqlClient }> {
    for (let seed = 1; ; seed++) {
      const ann = await app.player('ann');
      const bob = await app.player('bob');
      const { createMatch } = await ann.request<{ createMatch: { id: string } }>(M_CREATE, {
        input: { seats: 2, rules: { targetScore: 30, ...rules } },
      });
      await bob.request(M_JOIN, { id: createMatch.id });
      const bySeat = new Map([
        [0, ann],
        [1, bob],
      ]);
      const { final } = await driveMatch(bySeat, createMatch.id, seed);
      if (final.status === 'FINISHED') return { id: createMatch.id, bySeat, ann, bob };
    }
  }

  async function winningScorer(matchId: string): Promise<string> {
    const m = await app.server.app.get(PrismaService).match.findUniqueOrThrow({ where: { id: matchId }, include: { seats: true } });
    const seat = (m.state as { winningSeat: number }).winningSeat;
    return m.seats.find((s) => s.index === seat)!.playerId!;
  }

  it('by a non-player: FORBIDDEN; of a match not FINISHED: MATCH_NOT_FINISHED', async () => {
    const ann = await app.player();
    const bob = await app.player();
    const { createMatch } = await ann.request<{ createMatch: { id: string } }>(M_CREATE, { input: { seats: 2 } });
    expect(await codeOf(bob.request(M_REMATCH, { id: createMatch.id }))).toBe('FORBIDDEN');
    expect(await codeOf(ann.request(M_REMATCH, { id: createMatch.id }))).toBe('MATCH_NOT_FINISHED');
    await bob.request(M_JOIN, { id: createMatch.id });
    expect(await codeOf(ann.request(M_REMATCH, { id: createMatch.id }))).toBe('MATCH_NOT_FINISHED');
  });

  it('the first caller creates it in their seat, REMATCH_OFFERED says where, the second joins it; the winning scorer leads round 1', async () => {
    const { id, ann, bob } = await finishedMatch();
    const winner = await winningScorer(id);
    const loser = winner === ann.id ? bob : ann;
    const winnerClient = winner === ann.id ? ann : bob;
    const oldSeat = (c: GqlClient) => (c === ann ? 0 : 1);
    // The loser asks first: the rematch is theirs to create, with the id and chain they saw drawn (docs/fair-deals.md).
    const next = (await loser.request<{ me: { nextMatch: { id: string; dealCommitment: string } } }>('{ me { nextMatch { id dealCommitment } } }')).me
      .nextMatch;
    const created = (
      await loser.request<{ rematch: { id: string; status: string; mySeat: number; private: boolean; rematchOfId: string; dealCommitment: string } }>(
        M_REMATCH,
        { id },
      )
    ).rematch;
    expect(created).toMatchObject({
      status: 'WAITING',
      mySeat: oldSeat(loser),
      private: false,
      rematchOfId: id,
      id: next.id,
      dealCommitment: next.dealCommitment,
    });
    expect((await app.anon.request<{ match: { rematch: { id: string } } }>(Q_LINKS, { id })).match.rematch.id).toBe(created.id);
    expect(await eventsOf(app, id)).toEqual(expect.arrayContaining(['MATCH_FINISHED', 'REMATCH_OFFERED']));
    expect((await eventsOf(app, id)).at(-1)).toBe('REMATCH_OFFERED');

    const joined = (await winnerClient.request<{ rematch: { id: string; status: string; mySeat: number } }>(M_REMATCH, { id })).rematch;
    expect(joined).toMatchObject({ id: created.id, status: 'IN_PROGRESS', mySeat: oldSeat(winnerClient) });
    const rematch = await viewOf(winnerClient, created.id);
    expect(rematch.rules).toEqual((await viewOf(ann, id)).rules);
    expect(rematch.rounds[0].starter).toBe(oldSeat(winnerClient)); // R24
    // Asking again is answered with the rematch as it is; only one offer was made.
    expect((await loser.request<{ rematch: { id: string } }>(M_REMATCH, { id })).rematch.id).toBe(created.id);
    expect((await eventsOf(app, id)).filter((e) => e === 'REMATCH_OFFERED')).toHaveLength(1);

    // Played to its end, the rematch replays and verifies with its leader in the record.
    const bySeat = new Map([
      [0, ann],
      [1, bob],
    ]);
    await driveMatch(bySeat, created.id, 3);
    await expectReplayable(app, created.id);
    const record = (await (await fetch(`${app.url}/matches/${created.id}/record`)).json()) as { round1Leader?: number };
    expect(record.round1Leader).toBe(oldSeat(winnerClient));
    expect(recordValidator()(record).ok).toBe(true);
    expect(verifyRecord(record).problems).toEqual([]);
  });

  it('copies every setting: seats, partnerships, bots and their strategy, rules, privacy', async () => {
    const ann = await app.player();
    const { createMatch } = await ann.request<{ createMatch: { id: string } }>(M_CREATE, {
      input: { seats: 4, partnerships: true, bots: 3, botStrategy: 'RANDOM', private: true, rules: { targetScore: 20, handSize: 5 } },
    });
    await driveMatch(new Map([[0, ann]]), createMatch.id, 1);
    const finished = await viewOf(ann, createMatch.id);
    expect(finished.status).toBe('FINISHED');
    const r = (await ann.request<{ rematch: { id: string; status: string; private: boolean } }>(M_REMATCH, { id: createMatch.id })).rematch;
    // Every other seat is a bot: the rematch starts at once.
    expect(r).toMatchObject({ status: 'IN_PROGRESS', private: true });
    const m = await viewOf(ann, r.id);
    expect(m.rules).toEqual(finished.rules);
    expect(m.teams.map((t) => t.seats)).toEqual([
      [0, 2],
      [1, 3],
    ]);
    expect(m.seats.map((s) => [s.isBot, s.team])).toEqual(finished.seats.map((s) => [s.isBot, s.team]));
    const strategies = await app.server.app.get(PrismaService).seat.findMany({ where: { matchId: r.id }, orderBy: { index: 'asc' } });
    expect(strategies.map((s) => s.botStrategy)).toEqual([null, 'random', 'random', 'random']);
    // Its own fair-deal chain.
    expect(m.dealCommitment).not.toBe(finished.dealCommitment);
  });

  it('two first callers at once: one rematch, both seated (10 trials)', async () => {
    for (let trial = 0; trial < 10; trial++) {
      const { id, ann, bob } = await finishedMatch();
      const [a, b] = await Promise.all([ann, bob].map((c) => c.request<{ rematch: { id: string; mySeat: number } }>(M_REMATCH, { id })));
      expect(a.rematch.id).toBe(b.rematch.id);
      expect([a.rematch.mySeat, b.rematch.mySeat]).toEqual([0, 1]);
      expect((await viewOf(ann, a.rematch.id)).status).toBe('IN_PROGRESS');
      expect((await eventsOf(app, id)).filter((e) => e === 'REMATCH_OFFERED')).toHaveLength(1);
    }
  });
});
