import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PrismaService } from '../src/database/prisma.service.js';
import { readFile } from 'node:fs/promises';
import { Prisma } from '../generated/prisma/client.js';
import { chainCheckpoints, chainSecretHex, DEAL_CHAIN_LENGTH, hashTimes } from '../src/domain/index.js';
import { verifyRecord } from '../src/history/verify-record.js';
import { startTestApp, type TestApp } from './support/app.js';
import { driveMatch } from './support/driver.js';
import { M_CREATE, MATCH_FIELDS, Q_MATCH, ROUND_FIELDS, type MatchT } from './support/fragments.js';
import type { GqlClient } from './support/gql.js';
import { sleep } from './support/clocks.js';
import { Subscriber } from './support/ws.js';

/**
 * Provably fair deals over the public API (docs/fair-deals.md): the commitment and client seeds,
 * no secret of the chain in any response while its round is live, the secrets revealed once
 * rounds are over, and a verifier that accepts honest records and rejects tampered ones.
 */
const M_JOIN_SEED = `mutation($id: ID!, $seed: String) { joinMatch(matchId: $id, clientSeed: $seed) { ${MATCH_FIELDS} } } ${ROUND_FIELDS}`;
const M_SET_SEED = `mutation($id: ID!, $seed: String!) { setClientSeed(matchId: $id, clientSeed: $seed) { ${MATCH_FIELDS} } } ${ROUND_FIELDS}`;
const M_PLAY = `mutation($input: PlayTileInput!) { playTile(input: $input) { ${MATCH_FIELDS} } } ${ROUND_FIELDS}`;
const M_DRAW = `mutation($input: TurnInput!) { drawTile(input: $input) { ${MATCH_FIELDS} } } ${ROUND_FIELDS}`;
const S_EVENTS = `subscription($id: ID!) { matchEvents(matchId: $id) { seq type move { seq seat type tile { high low } } match { ${MATCH_FIELDS} } } } ${ROUND_FIELDS}`;
const HEX = /^[0-9a-f]{64}$/;
const run = promisify(execFile);

describe('fair deals', () => {
  let app: TestApp;
  let ann: GqlClient, bob: GqlClient, cy: GqlClient;
  beforeAll(async () => {
    app = await startTestApp();
    [ann, bob, cy] = await Promise.all([app.player('ann'), app.player('bob'), app.player('cy')]);
  });
  afterAll(async () => {
    await app.close();
  });

  /** Every secret of a match's chain, S_1 … S_N, as lowercase hex (read from the database, as only the server can). */
  async function chainOf(matchId: string): Promise<string[]> {
    const m = await app.server.app.get(PrismaService).match.findUniqueOrThrow({ where: { id: matchId }, select: { chainSecret: true } });
    const anchor = { round: DEAL_CHAIN_LENGTH, secret: m.chainSecret };
    return Array.from({ length: DEAL_CHAIN_LENGTH }, (_, i) => chainSecretHex(anchor, i + 1));
  }

  /** The secrets S_k (k ≥ fromRound) a text holds, in any letter case. */
  function leaked(text: string, chain: string[], fromRound: number): number[] {
    const found = new Set((text.match(/[0-9a-f]{64}/gi) ?? []).map((h) => h.toLowerCase()));
    return chain.map((s, i) => (found.has(s) && i + 1 >= fromRound ? i + 1 : 0)).filter((k) => k > 0);
  }

  async function recordOf(matchId: string): Promise<Record<string, unknown> & { rounds: { deal: { secret: string; deck: unknown[] } }[] }> {
    return (await (await fetch(`${app.url}/matches/${matchId}/record`)).json()) as never;
  }

  it('commits at creation, takes client seeds until the start, and refuses bad ones without a change', async () => {
    const { createMatch: m } = await ann.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 3, clientSeed: 'ann seed ~1' } });
    expect(m.dealCommitment).toMatch(HEX);
    expect(m.seats.map((s) => s.clientSeed)).toEqual([
      'ann seed ~1',
      expect.stringMatching(/^[0-9a-f]{16}$/),
      expect.stringMatching(/^[0-9a-f]{16}$/),
    ]);
    expect(await ann.errorCode(M_SET_SEED, { id: m.id, seed: 'a|b' })).toBe('BAD_USER_INPUT');
    expect(await ann.errorCode(M_SET_SEED, { id: m.id, seed: 'x'.repeat(65) })).toBe('BAD_USER_INPUT');
    expect(await ann.errorCode(M_SET_SEED, { id: m.id, seed: 'é' })).toBe('BAD_USER_INPUT');
    expect(await cy.errorCode(M_SET_SEED, { id: m.id, seed: 'cy' })).toBe('FORBIDDEN');
    expect(await bob.errorCode(M_JOIN_SEED, { id: m.id, seed: '' })).toBe('BAD_USER_INPUT');
    const after = (await ann.request<{ match: MatchT }>(Q_MATCH, { id: m.id })).match;
    expect(after.version).toBe(m.version);
    expect(after.seats.map((s) => s.player?.id ?? null)).toEqual([ann.id, null, null]);

    const { setClientSeed } = await ann.request<{ setClientSeed: MatchT }>(M_SET_SEED, { id: m.id, seed: 'ann-2' });
    expect(setClientSeed.seats[0].clientSeed).toBe('ann-2');
    await bob.request(M_JOIN_SEED, { id: m.id, seed: 'bob' });
    const { joinMatch: started } = await cy.request<{ joinMatch: MatchT }>(M_JOIN_SEED, { id: m.id });
    expect(started.status).toBe('IN_PROGRESS');
    expect(started.seats.map((s) => s.clientSeed)).toEqual(['ann-2', 'bob', expect.stringMatching(/^[0-9a-f]{16}$/)]);
    expect(started.dealCommitment).toBe(m.dealCommitment);
    expect(await bob.errorCode(M_SET_SEED, { id: m.id, seed: 'too late' })).toBe('MATCH_NOT_IN_PROGRESS');
    // The commitment is SHA-256 of S_1 of the stored chain.
    const chain = await chainOf(m.id);
    expect(hashTimes(chain[0], 1)).toBe(m.dealCommitment);
  });

  describe('holding the server to its commitment', () => {
    const Q_NEXT = '{ me { id nextMatch { id dealCommitment } } }';
    const Q_SEAT_PLAYERS = `query($id: ID!) { match(id: $id) { seats { player { id nextMatch { id dealCommitment } } } } }`;
    const M_LEAVE = 'mutation($id: ID!) { leaveMatch(matchId: $id) { seats { clientSeed } } }';
    type Next = { id: string; dealCommitment: string };
    const nextOf = async (c: GqlClient) => (await c.request<{ me: { nextMatch: Next } }>(Q_NEXT)).me.nextMatch;
    /** docs/fair-deals.md, written here on node:crypto: the seed of a seat nobody gave one. */
    const seatSeed = (commitment: string, seat: number) =>
      createHash('sha256').update(`straight-dominoes/seat-seed/v1|${commitment}|${seat}`).digest('hex').slice(0, 16);

    it("a match against bots has the id and chain its creator saw drawn before sending a seed; the bots' seeds follow from them", async () => {
      const dee = await app.player('dee');
      const next = await nextOf(dee);
      expect(next.dealCommitment).toMatch(HEX);
      expect(await nextOf(dee)).toEqual(next); // the same until a match takes it
      const { createMatch: m } = await dee.request<{ createMatch: MatchT }>(M_CREATE, {
        input: { seats: 3, bots: 2, clientSeed: 'dee, after the commitment' },
      });
      expect(m.status).toBe('IN_PROGRESS');
      expect({ id: m.id, dealCommitment: m.dealCommitment }).toEqual(next);
      expect(m.seats.map((s) => s.clientSeed)).toEqual([
        'dee, after the commitment',
        seatSeed(next.dealCommitment, 1),
        seatSeed(next.dealCommitment, 2),
      ]);
      expect(hashTimes((await chainOf(m.id))[0], 1)).toBe(next.dealCommitment);
      const after = await nextOf(dee);
      expect(after.id).not.toBe(next.id); // taken: the next match gets a draw of its own
      expect(after.dealCommitment).not.toBe(next.dealCommitment);
      // Its record verifies, with nothing to note: every bot's seed is its seat's default. (Resigned
      // on dee's turn, when the bots are still: while they move, each move is a commit the resign races.)
      const Q_TURN = 'query($id: ID!) { match(id: $id) { turn } }';
      const turnOf = async () => (await dee.request<{ match: { turn: number | null } }>(Q_TURN, { id: m.id })).match.turn;
      for (let i = 0; i < 250 && (await turnOf()) !== 0; i++) await sleep(20);
      await dee.request(`mutation($id: ID!) { resignMatch(matchId: $id) { status } }`, { id: m.id });
      expect(verifyRecord(await recordOf(m.id))).toMatchObject({ ok: true, problems: [], notes: [] });
    });

    it('shows a player their own next match only, and draws it once however often one query asks', async () => {
      const [eve, fay] = await Promise.all([app.player('eve'), app.player('fay')]);
      const { createMatch: m } = await eve.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
      await fay.request(M_JOIN_SEED, { id: m.id, seed: 'fay' });
      const seen = async (viewer: GqlClient) =>
        (
          await viewer.request<{ match: { seats: { player: { id: string; nextMatch: Next | null } }[] } }>(Q_SEAT_PLAYERS, { id: m.id })
        ).match.seats.map((s) => s.player.nextMatch);
      expect(await seen(fay)).toEqual([null, await nextOf(fay)]);
      expect(await seen(eve)).toEqual([await nextOf(eve), null]);
      expect(await seen(app.anon)).toEqual([null, null]);
      expect(await app.anon.request<{ me: null }>(Q_NEXT)).toEqual({ me: null });
      // First reads at once, in one query and in several, draw once: every answer is the same.
      const aliased = `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: me { nextMatch { id dealCommitment } }`).join(' ')} }`;
      for (const name of ['lee', 'mo', 'ned']) {
        const p = await app.player(name);
        const [one, two] = await Promise.all([p.request<Record<string, { nextMatch: Next }>>(aliased), nextOf(p)]);
        const answers = [...Object.values(one).map((me) => me.nextMatch), two];
        expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
        expect(await nextOf(p)).toEqual(two);
      }
    });

    it('two new matches at once: the one that takes the draw is created, the other refused (STALE_VERSION); a refused one leaves it', async () => {
      const gus = await app.player('gus');
      let createdInAll = 0;
      let refusedInAll = 0;
      for (let trial = 0; trial < 5; trial++) {
        const next = await nextOf(gus);
        const made = await Promise.all([0, 1].map(() => gus.raw(M_CREATE, { input: { seats: 2, bots: 1 } })));
        const created = made.filter((r) => !r.body.errors).map((r) => (r.body.data as { createMatch: MatchT }).createMatch);
        const refused = made.filter((r) => r.body.errors).map((r) => r.body.errors?.[0]?.extensions?.code);
        // One took the draw; the other, when it raced for the same one, was refused: its seed was sent for that draw.
        expect(created.filter((c) => c.id === next.id && c.dealCommitment === next.dealCommitment)).toHaveLength(1);
        expect(refused.filter((code) => code !== 'STALE_VERSION')).toEqual([]);
        createdInAll += created.length;
        refusedInAll += refused.length;
      }
      expect(refusedInAll).toBeGreaterThan(0); // the race was run, not just two creates one after the other
      const Q_COUNT = 'query($id: ID!) { matches(playerId: $id) { totalCount } }';
      expect((await gus.request<{ matches: { totalCount: number } }>(Q_COUNT, { id: gus.id })).matches.totalCount).toBe(createdInAll);
      // A createMatch refused past the WAITING cap (1 here) changes nothing, the pending draw included.
      const tight = await startTestApp({ MAX_WAITING_MATCHES: '1' });
      try {
        const kim = await tight.player('kim');
        await kim.request(M_CREATE, { input: { seats: 2 } });
        const next = await nextOf(kim);
        expect(await kim.errorCode(M_CREATE, { input: { seats: 2 } })).toBe('TOO_MANY_WAITING_MATCHES');
        expect(await nextOf(kim)).toEqual(next);
      } finally {
        await tight.close();
      }
    });

    it('a seat nobody gave a seed shows its default seed; a joiner who brings none keeps it, and a seat left gets it back', async () => {
      const [hal, ivy, jo] = await Promise.all([app.player('hal'), app.player('ivy'), app.player('jo')]);
      const { createMatch: m } = await hal.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 3 } });
      const defaults = [0, 1, 2].map((i) => seatSeed(m.dealCommitment, i));
      expect(m.seats.map((s) => s.clientSeed)).toEqual(defaults);
      await ivy.request(M_JOIN_SEED, { id: m.id, seed: 'ivy' });
      const left = (await ivy.request<{ leaveMatch: { seats: { clientSeed: string }[] } }>(M_LEAVE, { id: m.id })).leaveMatch;
      expect(left.seats.map((s) => s.clientSeed)).toEqual(defaults);
      await ivy.request(M_JOIN_SEED, { id: m.id });
      const { joinMatch: started } = await jo.request<{ joinMatch: MatchT }>(M_JOIN_SEED, { id: m.id, seed: null });
      expect(started.status).toBe('IN_PROGRESS');
      expect(started.seats.map((s) => s.clientSeed)).toEqual(defaults);
      // The record shows them as the seeds every deal used, and verifies.
      await hal.request(`mutation($id: ID!) { resignMatch(matchId: $id) { status } }`, { id: m.id });
      const record = await recordOf(m.id);
      expect((record.seats as { clientSeed: string }[]).map((s) => s.clientSeed)).toEqual(defaults);
      expect(verifyRecord(record).problems).toEqual([]);
    });
  });

  it('no response holds a secret of a live round; each is revealed once its round is over', async () => {
    const { createMatch: m } = await ann.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2, rules: { targetScore: 250 } } });
    const subs = [new Subscriber<string>(app.url, ann.token), new Subscriber<string>(app.url, bob.token), new Subscriber<string>(app.url)].map((s) =>
      s.subscribe(S_EVENTS, { id: m.id }, (d) => JSON.stringify(d)),
    );
    await Promise.all(subs.map((s) => s.until(() => true)));
    const { joinMatch } = await bob.request<{ joinMatch: MatchT }>(M_JOIN_SEED, { id: m.id, seed: 'bob' });
    const chain = await chainOf(m.id);
    const bySeat = new Map<number, GqlClient>([
      [0, ann],
      [1, bob],
    ]);
    const seen: string[] = [JSON.stringify(joinMatch)];
    // Play round 1 through, saving every answer: views, mutations, an error, the record's refusal.
    let view = joinMatch;
    while (view.currentRound!.number === 1 && view.status === 'IN_PROGRESS') {
      expect(view.currentRound!.dealSecret).toBeNull();
      expect(view.rounds.map((r) => r.dealSecret)).toEqual([null]);
      const seat = view.turn!;
      const client = bySeat.get(seat)!;
      const mine = await client.raw(Q_MATCH, { id: m.id });
      seen.push(JSON.stringify(mine.body), JSON.stringify((await app.anon.raw(Q_MATCH, { id: m.id })).body));
      const me = (mine.body.data as { match: MatchT }).match;
      const illegal = await client.raw(M_PLAY, { input: { matchId: m.id, tile: { high: 9, low: 9 } } });
      const stale = await client.raw(M_DRAW, { input: { matchId: m.id, expectedVersion: me.version - 1 } });
      const record = await fetch(`${app.url}/matches/${m.id}/record`);
      seen.push(JSON.stringify(illegal.body), JSON.stringify(stale.body), await record.text());
      const res =
        me.legalMoves.length > 0
          ? await client.raw(M_PLAY, { input: { matchId: m.id, tile: me.legalMoves[0].tile, end: me.legalMoves[0].end } })
          : await client.raw(M_DRAW, { input: { matchId: m.id } });
      seen.push(JSON.stringify(res.body));
      const data = res.body.data as { playTile?: MatchT; drawTile?: MatchT };
      view = (data.playTile ?? data.drawTile)!;
    }
    // Round 1 is over: its secret is revealed, and it hashes to the commitment; round 2's is not.
    expect(view.rounds[0].dealSecret).toBe(chain[0]);
    expect(hashTimes(view.rounds[0].dealSecret!, 1)).toBe(m.dealCommitment);
    if (view.status === 'IN_PROGRESS') {
      expect(view.currentRound!.number).toBe(2);
      expect(view.currentRound!.dealSecret).toBeNull();
    }
    await Promise.all(subs.map((s) => s.until((r) => r.some((t) => t.includes('"ROUND_ENDED"')))));
    // While round 1 was live nothing held any S_k: every HTTP answer but the one that ended it, and
    // every event sent before round 1 shows as FINISHED. Since then nothing holds S_2 … S_N.
    expect(seen.slice(0, -1).flatMap((t) => leaked(t, chain, 1))).toEqual([]);
    for (const sub of subs) {
      const firstOver = sub.received.findIndex(
        (t) => (JSON.parse(t) as { matchEvents: { match: MatchT } }).matchEvents.match.rounds[0]?.status === 'FINISHED',
      );
      expect(firstOver).toBeGreaterThan(0);
      expect(sub.received.slice(0, firstOver).flatMap((t) => leaked(t, chain, 1))).toEqual([]);
      expect(sub.received.flatMap((t) => leaked(t, chain, 2))).toEqual([]);
      expect(sub.errors).toEqual([]);
    }
    expect(seen.flatMap((t) => leaked(t, chain, 2))).toEqual([]);
    await Promise.all(subs.map((s) => s.close()));
  });

  it('a resigned match reveals its unfinished round, and its record verifies', async () => {
    const { createMatch: m } = await ann.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
    await bob.request(M_JOIN_SEED, { id: m.id });
    const live = (await ann.request<{ match: MatchT }>(Q_MATCH, { id: m.id })).match;
    expect(live.currentRound!.dealSecret).toBeNull();
    await ann.request(`mutation($id: ID!) { resignMatch(matchId: $id) { status } }`, { id: m.id });
    const over = (await ann.request<{ match: MatchT }>(Q_MATCH, { id: m.id })).match;
    const chain = await chainOf(m.id);
    expect(over.currentRound!.dealSecret).toBe(chain[0]);
    expect(over.rounds.map((r) => r.dealSecret)).toEqual([chain[0]]);
    const rec = await recordOf(m.id);
    expect(rec.rounds[0].deal.secret).toBe(chain[0]);
    expect(verifyRecord(rec).problems).toEqual([]);
    expect(JSON.stringify(rec)).not.toContain(chain[DEAL_CHAIN_LENGTH - 1]);
  });

  it('stores the chain checkpoints at creation, the migration backfills the same, and revealed secrets are read from them', async () => {
    const prisma = app.server.app.get(PrismaService);
    const { createMatch: m } = await ann.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
    await bob.request(M_JOIN_SEED, { id: m.id });
    await ann.request(`mutation($id: ID!) { resignMatch(matchId: $id) { status } }`, { id: m.id });
    const chain = await chainOf(m.id);
    const { chainSecret } = await prisma.match.findUniqueOrThrow({ where: { id: m.id }, select: { chainSecret: true } });
    const stored = async () => (await prisma.matchDealChain.findUnique({ where: { matchId: m.id } }))?.checkpoints ?? null;
    const expected = Buffer.from(chainCheckpoints({ round: DEAL_CHAIN_LENGTH, secret: chainSecret }));
    expect(Buffer.from((await stored())!).equals(expected)).toBe(true);
    // Read through a history page: MATCH_COLUMNS from the database, never this process's cache.
    const Q_SECRET = `query($player: ID!) { matches(playerId: $player, status: FINISHED, first: 100) { edges { node { id currentRound { dealSecret } } } } }`;
    type Page = { matches: { edges: { node: { id: string; currentRound: { dealSecret: string } } }[] } };
    const revealed = async () =>
      (await ann.request<Page>(Q_SECRET, { player: ann.id })).matches.edges.find((e) => e.node.id === m.id)!.node.currentRound.dealSecret;
    expect(await revealed()).toBe(chain[0]);

    // Checkpoints of another chain: what is revealed now comes from them, not from S_N.
    const other = { round: DEAL_CHAIN_LENGTH, secret: 'cd'.repeat(32) };
    await prisma.matchDealChain.update({ where: { matchId: m.id }, data: { checkpoints: Buffer.from(chainCheckpoints(other)) } });
    expect(await revealed()).toBe(chainSecretHex(other, 1));

    // A match stored before checkpoints existed: its secret is walked from S_N, and the
    // migration's backfill writes exactly what creation writes.
    await prisma.matchDealChain.delete({ where: { matchId: m.id } });
    expect(await revealed()).toBe(chain[0]);
    const migration = await readFile(join(process.cwd(), 'prisma/migrations/20261202195557_deal_chain_checkpoints/migration.sql'), 'utf8');
    const backfill = migration.slice(migration.indexOf("DO E'"), migration.indexOf("END';") + "END'".length);
    await prisma.poolQuery(Prisma.raw(backfill));
    expect(Buffer.from((await stored())!).equals(expected)).toBe(true);
    expect(await revealed()).toBe(chain[0]);
  });

  it('the verifier accepts a finished match and rejects a swapped boneyard tile, a changed seed or a wrong secret', async () => {
    const { createMatch: m } = await ann.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2, rules: { targetScore: 100 } } });
    await bob.request(M_JOIN_SEED, { id: m.id, seed: 'bob' });
    const { final } = await driveMatch(
      new Map([
        [0, ann],
        [1, bob],
      ]),
      m.id,
      3,
    );
    expect(final.status).toBe('FINISHED');
    expect(final.rounds.every((r, i) => hashTimes(r.dealSecret!, i + 1) === m.dealCommitment)).toBe(true);
    const honest = await recordOf(m.id);
    expect(verifyRecord(honest)).toMatchObject({ ok: true, problems: [] });
    const chain = await chainOf(m.id);
    expect(JSON.stringify(honest)).not.toContain(chain[DEAL_CHAIN_LENGTH - 1]);
    expect(JSON.stringify(honest)).not.toContain(chain[final.rounds.length]); // S_(R+1): never dealt, never shown

    const swapped = structuredClone(honest);
    const deck = swapped.rounds[0].deal.deck;
    [deck[14], deck[15]] = [deck[15], deck[14]]; // two boneyard tiles (2 seats × 7 in hand)
    expect(verifyRecord(swapped).problems).toEqual([expect.stringContaining('round 1: the deck differs')]);

    const reseeded = structuredClone(honest) as typeof honest & { seats: { clientSeed: string }[] };
    reseeded.seats[1].clientSeed = 'bob2';
    expect(verifyRecord(reseeded).ok).toBe(false);
    expect(verifyRecord(reseeded).problems[0]).toContain('the deck differs');

    const wrongSecret = structuredClone(honest);
    const s = wrongSecret.rounds[0].deal.secret;
    wrongSecret.rounds[0].deal.secret = (s[0] === '0' ? '1' : '0') + s.slice(1);
    expect(verifyRecord(wrongSecret).problems).toEqual([
      expect.stringContaining('round 1: SHA-256 applied 1 times to its secret is not the commitment'),
    ]);

    // The command-line verifier, on the URL and on a tampered file.
    const cli = join(process.cwd(), 'dist/scripts/verify-record.js');
    const ok = await run(process.execPath, [cli, `${app.url}/matches/${m.id}/record`]);
    expect(ok.stdout).toMatch(/^OK /);
    const dir = await mkdtemp(join(tmpdir(), 'verify-record-'));
    try {
      const file = join(dir, 'tampered.json');
      await writeFile(file, JSON.stringify(swapped));
      const failed = await run(process.execPath, [cli, file]).then(
        () => null,
        (e: { code: number; stderr: string }) => e,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toContain('the deck differs');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
