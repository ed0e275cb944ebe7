import pg from 'pg';
import { startTestApp, type TestApp } from './support/app.js';
import type { GqlClient } from './support/gql.js';

const M_REGISTER = `mutation($name: String!) { registerPlayer(name: $name) { player { id name } } }`;
const M_CREATE = `mutation($input: CreateMatchInput!) { createMatch(input: $input) { id } }`;
const M_JOIN = `mutation($id: ID!) { joinMatch(matchId: $id) { id } }`;
const M_DRAW = `mutation($input: TurnInput!) { drawTile(input: $input) { id } }`;
const Q_MATCHES = `query($playerId: ID, $after: String, $from: DateTime, $to: DateTime) {
  matches(playerId: $playerId, after: $after, from: $from, to: $to) { totalCount } }`;
const Q_LEADERS = `query($after: String) { leaderboard(after: $after) { totalCount } }`;
const b64 = (s: string) => Buffer.from(s).toString('base64url');

/** The inputs that used to answer INTERNAL_SERVER_ERROR with a stack in the log: each is the client's mistake. */
describe('client mistakes are client errors', () => {
  let app: TestApp;
  let ann: GqlClient;
  let matchId: string;
  beforeAll(async () => {
    app = await startTestApp();
    ann = await app.player('ann');
    const bob = await app.player('bob');
    matchId = (await ann.request<{ createMatch: { id: string } }>(M_CREATE, { input: { seats: 2 } })).createMatch.id;
    await bob.request(M_JOIN, { id: matchId });
  });
  afterAll(() => app.close());

  it('a NUL byte or other control or invisible character in a name is BAD_USER_INPUT', async () => {
    for (const name of ['Ann\u0000', '\u0000', 'a\u0007b', 'x\u202eevil', 'zero\u200bwidth', '\ud800']) {
      expect(await app.anon.errorCode(M_REGISTER, { name })).toBe('BAD_USER_INPUT');
    }
  });

  it('names are trimmed and NFC-normalised, 1 to 40 characters (counted as code points), and need not be unique', async () => {
    const a = await app.anon.request<{ registerPlayer: { player: { name: string } } }>(M_REGISTER, { name: '  Zoe\u0301  ' });
    expect(a.registerPlayer.player.name).toBe('Zo\u00e9');
    const twin = await app.anon.request<{ registerPlayer: { player: { id: string; name: string } } }>(M_REGISTER, { name: 'Zoé' });
    expect(twin.registerPlayer.player.name).toBe('Zoé');
    expect(
      (await app.anon.request<{ registerPlayer: { player: { name: string } } }>(M_REGISTER, { name: '🀄'.repeat(40) })).registerPlayer.player.name,
    ).toBe('🀄'.repeat(40));
    expect(await app.anon.errorCode(M_REGISTER, { name: 'x'.repeat(41) })).toBe('BAD_USER_INPUT');
    expect(await app.anon.errorCode(M_REGISTER, { name: '   ' })).toBe('BAD_USER_INPUT');
    // Emoji sequences joined by ZWJ stay allowed.
    expect((await app.anon.request<{ registerPlayer: { player: { name: string } } }>(M_REGISTER, { name: '👩‍👩‍👧' })).registerPlayer.player.name).toBe(
      '👩‍👩‍👧',
    );
  });

  it('a NUL byte in a clientMoveId is BAD_USER_INPUT, and nothing is stored', async () => {
    const db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    const moves = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Move"`)).rows[0].n;
    const before = await moves();
    for (const clientMoveId of ['c\u0000', '\u0000', 'tab\there', 'x'.repeat(101), '']) {
      expect(await ann.errorCode(M_DRAW, { input: { matchId, clientMoveId } })).toBe('BAD_USER_INPUT');
    }
    expect(await moves()).toBe(before);
    await db.end();
  });

  it('a matches cursor whose id is not a UUID is BAD_USER_INPUT, with and without playerId', async () => {
    const after = b64('2026-01-01T00:00:00.000Z|not-a-uuid');
    expect(await app.anon.errorCode(Q_MATCHES, { after })).toBe('BAD_USER_INPUT');
    expect(await app.anon.errorCode(Q_MATCHES, { after, playerId: ann.id })).toBe('BAD_USER_INPUT');
    const yearZero = b64('0000-01-01T00:00:00.000Z|00000000-0000-4000-8000-000000000000');
    expect(await app.anon.errorCode(Q_MATCHES, { after: yearZero, playerId: ann.id })).toBe('BAD_USER_INPUT');
  });

  it('from or to outside 1970..9999 is BAD_USER_INPUT', async () => {
    expect(await app.anon.errorCode(Q_MATCHES, { from: '0000-01-01T00:00:00.000Z' })).toBe('BAD_USER_INPUT');
    expect(await app.anon.errorCode(Q_MATCHES, { from: '0000-01-01T00:00:00.000Z', playerId: ann.id })).toBe('BAD_USER_INPUT');
    expect(await app.anon.errorCode(Q_MATCHES, { to: '+275760-09-13T00:00:00.000Z' })).toBe('BAD_USER_INPUT');
    expect((await app.anon.request<{ matches: { totalCount: number } }>(Q_MATCHES, { from: '2020-01-01T00:00:00.000Z' })).matches.totalCount).toBe(1);
  });

  it('a leaderboard cursor with counts past 2^31 is BAD_USER_INPUT', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    expect(await app.anon.errorCode(Q_LEADERS, { after: b64(`${2 ** 31}|0|${id}`) })).toBe('BAD_USER_INPUT');
    expect(await app.anon.errorCode(Q_LEADERS, { after: b64(`0|${2 ** 40}|${id}`) })).toBe('BAD_USER_INPUT');
    expect(await app.anon.errorCode(Q_LEADERS, { after: b64(`-1|0|${id}`) })).toBe('BAD_USER_INPUT');
    expect(
      (await app.anon.request<{ leaderboard: { totalCount: number } }>(Q_LEADERS, { after: b64(`${2 ** 31 - 1}|0|${id}`) })).leaderboard.totalCount,
    ).toBe(0);
  });
});
