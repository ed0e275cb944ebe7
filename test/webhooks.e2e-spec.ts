import { PrismaService } from '../src/database/prisma.service.js';
import type { TestApp } from './support/app.js';
import { viewOf } from './support/driver.js';
import { eventually } from './support/eventually.js';
import { M_CREATE, M_JOIN, type MatchT } from './support/fragments.js';
import { GqlClient } from './support/gql.js';
import { closeReceiverAndApp, startReceiverAndApp, verified, type WebhookReceiver } from './support/webhook-receiver.js';
import {
  ALL_EVENTS,
  botMatch,
  createWebhook,
  deliveries,
  M_CREATE_WEBHOOK,
  M_REDELIVER,
  M_ROTATE_WEBHOOK,
  M_UPDATE_WEBHOOK,
  Q_MY_WEBHOOKS,
} from './support/webhooks.js';

/** What a message's data may hold: public match facts only, never a tile. */
const DATA_KEYS = [
  'matchId',
  'matchVersion',
  'seat',
  'round',
  'winnerTeam',
  'won',
  'deadline',
  'timedOutSeat',
  'offeredBySeat',
  'joinedSeat',
  'leftSeat',
];
const M_RESIGN = `mutation($id: ID!) { resignMatch(matchId: $id) { version status } }`;
const M_PLAY = `mutation($input: PlayTileInput!) { playTile(input: $input) { version turn } }`;
const M_DRAW = `mutation($input: TurnInput!) { drawTile(input: $input) { version turn } }`;

/** One move of the seat to move, from its own legal moves; returns the new version. */
async function move(client: GqlClient, matchId: string): Promise<number> {
  const me = await viewOf(client, matchId);
  const input = { matchId, expectedVersion: me.version };
  if (me.legalMoves.length > 0) {
    const mv = me.legalMoves[0];
    return (await client.request<{ playTile: { version: number } }>(M_PLAY, { input: { ...input, tile: mv.tile, end: mv.end } })).playTile.version;
  }
  return (await client.request<{ drawTile: { version: number } }>(M_DRAW, { input })).drawTile.version;
}

describe('webhooks to a real local receiver (WEBHOOK_ALLOW_PRIVATE=true)', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(
    async () =>
      ({ receiver, app } = await startReceiverAndApp({
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_RETRY_SCHEDULE: '0.05,0.05,0.05',
        SWEEP_INTERVAL_MS: '50',
        CLOCK_MIN_SECONDS: '1',
      })),
  );
  afterAll(() => closeReceiverAndApp({ receiver, app }));

  it('sends every event that fires, signed per Standard Webhooks, with public match data only', async () => {
    const [p1, p2] = [await app.player('alice'), await app.player('bob')];
    const w1 = await createWebhook(p1, `${receiver.url}/alice`);
    const w2 = await createWebhook(p2, `${receiver.url}/bob`);
    const mine = await p1.request<{ me: { webhooks: { id: string; events: string[]; enabled: boolean }[] } }>(Q_MY_WEBHOOKS);
    expect(mine.me.webhooks).toEqual([expect.objectContaining({ id: w1.id, events: ALL_EVENTS, enabled: true })]);

    const created = (await p1.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } })).createMatch;
    const joined = (await p2.request<{ joinMatch: MatchT }>(M_JOIN, { id: created.id })).joinMatch;
    expect(joined.status).toBe('IN_PROGRESS');
    const byseat = new Map([
      [0, { client: p1, path: '/alice', secret: w1.secret }],
      [1, { client: p2, path: '/bob', secret: w2.secret }],
    ]);
    const mover = byseat.get(joined.turn!)!;
    const other = byseat.get(1 - joined.turn!)!;
    const afterMove = await move(mover.client, created.id);
    const afterResign = (await p1.request<{ resignMatch: { version: number; status: string } }>(M_RESIGN, { id: created.id })).resignMatch;
    expect(afterResign.status).toBe('FINISHED');

    const types = (path: string) => receiver.at(path).map((r) => (JSON.parse(r.body) as { type: string }).type);
    await eventually(
      () => types(mover.path),
      (t) => t.length >= 3,
      'messages to the first mover',
    );
    await eventually(
      () => types(other.path),
      (t) => t.length >= 3,
      'messages to the other player',
    );
    // The first mover: the start and its turn; the other: the start, its turn after the move; both: the end.
    expect(types(mover.path).sort()).toEqual(['MATCH_FINISHED', 'MATCH_STARTED', 'TURN']);
    expect(types(other.path).sort()).toEqual(['MATCH_FINISHED', 'MATCH_STARTED', 'TURN']);
    for (const [seat, s] of byseat) {
      for (const r of receiver.at(s.path)) {
        const msg = verified(s.secret, r);
        expect(Object.keys(msg).sort()).toEqual(['data', 'timestamp', 'type']);
        expect(new Date(msg.timestamp).toISOString()).toBe(msg.timestamp);
        expect(DATA_KEYS).toEqual(expect.arrayContaining(Object.keys(msg.data)));
        expect(msg.data).toMatchObject({ matchId: created.id, seat });
        const version = { MATCH_STARTED: joined.version, MATCH_FINISHED: afterResign.version }[msg.type];
        if (version !== undefined) expect(msg.data.matchVersion).toBe(version);
        if (msg.type === 'TURN') expect(msg.data.matchVersion).toBe(s === mover ? joined.version : afterMove);
        expect(r.headers['webhook-id']).toMatch(/^msg_/);
        expect(r.headers['content-type']).toBe('application/json');
      }
    }
    // A match without a clock never sends DEADLINE_SOON or TIMED_OUT.
    expect(
      receiver
        .at(mover.path)
        .concat(receiver.at(other.path))
        .some((r) => /DEADLINE_SOON|TIMED_OUT/.test(r.body)),
    ).toBe(false);
    // The delivery log has each message, delivered at the first attempt (the attempt is recorded
    // just after the receiver answered: wait for it).
    const log = await eventually(
      () => deliveries(p1, w1.id),
      (l) => l.length === 3 && l.every((d) => d.status === 'DELIVERED'),
      'the delivery log',
    );
    expect(log).toHaveLength(3);
    for (const d of log) expect(d).toMatchObject({ status: 'DELIVERED', attempts: [{ statusCode: 200, error: null }] });
    expect(log.map((d) => d.createdAt)).toEqual([...log.map((d) => d.createdAt)].sort().reverse());
  });

  it('sends DEADLINE_SOON to the player whose time runs and TIMED_OUT to every player, signed', async () => {
    const [p1, p2] = [await app.player('carol'), await app.player('dave')];
    const secrets = new Map([
      ['/carol', (await createWebhook(p1, `${receiver.url}/carol`)).secret],
      ['/dave', (await createWebhook(p2, `${receiver.url}/dave`)).secret],
    ]);
    // 5 s: DEADLINE_SOON is sent between 80 % of the turn and its end, a second here, which a
    // loaded machine's sweeps still hit (of a 1 s turn they could miss the 200 ms and skip it).
    const clock = { kind: 'PER_MOVE', moveSeconds: 5, onTimeout: 'FORFEIT' };
    const created = (await p1.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2, clock } })).createMatch;
    const joined = (await p2.request<{ joinMatch: MatchT }>(M_JOIN, { id: created.id })).joinMatch;
    const [moverPath, otherPath] = joined.turn === 0 ? ['/carol', '/dave'] : ['/dave', '/carol'];
    const typesAt = (path: string) => receiver.at(path).map((r) => verified(secrets.get(path)!, r));
    // Nobody moves: 80 % of the turn, then the timeout, and the mover's side forfeits.
    await eventually(
      () => typesAt(otherPath).map((m) => m.type),
      (t) => t.includes('TIMED_OUT') && t.includes('MATCH_FINISHED'),
      'TIMED_OUT to the other player',
    );
    const mover = await eventually(
      () => typesAt(moverPath),
      (m) => ['DEADLINE_SOON', 'TIMED_OUT', 'MATCH_FINISHED'].every((t) => m.some((x) => x.type === t)),
      'DEADLINE_SOON and TIMED_OUT to the mover',
    );
    const soon = mover.find((m) => m.type === 'DEADLINE_SOON')!;
    expect(soon.data).toMatchObject({ matchId: created.id, seat: joined.turn });
    expect(new Date(soon.data.deadline as string).getTime()).toBeGreaterThan(new Date(soon.timestamp).getTime());
    for (const path of [moverPath, otherPath]) {
      const timedOut = typesAt(path).find((m) => m.type === 'TIMED_OUT')!;
      expect(timedOut.data).toMatchObject({
        matchId: created.id,
        timedOutSeat: joined.turn,
        seat: path === moverPath ? joined.turn : 1 - joined.turn!,
      });
    }
    // Only the player whose time ran gets the reminder.
    expect(typesAt(otherPath).some((m) => m.type === 'DEADLINE_SOON')).toBe(false);
  });
  it('sends REMATCH_OFFERED to the other players of a finished match, once, naming the offering seat', async () => {
    const [p1, p2] = [await app.player('erin'), await app.player('frank')];
    await createWebhook(p1, `${receiver.url}/erin`, ['REMATCH_OFFERED']);
    const w2 = await createWebhook(p2, `${receiver.url}/frank`, ['REMATCH_OFFERED']);
    const created = (await p1.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } })).createMatch;
    await p2.request(M_JOIN, { id: created.id });
    await p1.request(M_RESIGN, { id: created.id });
    const M_REMATCH = 'mutation($id: ID!) { rematch(matchId: $id) { id } }';
    const { rematch } = await p1.request<{ rematch: { id: string } }>(M_REMATCH, { id: created.id });
    const [r] = await eventually(
      () => receiver.at('/frank'),
      (at) => at.length >= 1,
      'the offer to the other player',
    );
    const msg = verified(w2.secret, r);
    const { match } = await p2.request<{ match: { version: number; rematch: { id: string } } }>(
      'query($id: ID!) { match(id: $id) { version rematch { id } } }',
      { id: created.id },
    );
    expect(match.rematch.id).toBe(rematch.id);
    expect(msg).toMatchObject({ type: 'REMATCH_OFFERED', data: { matchId: created.id, matchVersion: match.version, seat: 1, offeredBySeat: 0 } });
    // Joining the rematch offers nothing new, and the offering player is not told of their own offer.
    await p2.request(M_REMATCH, { id: created.id });
    await new Promise((done) => setTimeout(done, 300));
    expect(receiver.at('/frank')).toHaveLength(1);
    expect(receiver.at('/erin')).toHaveLength(0);
  });

  it('sends PLAYER_JOINED and PLAYER_LEFT of a match still waiting to the other players seated, none to the one who moved', async () => {
    const players = await Promise.all(['gina', 'hugo', 'ivan'].map((n) => app.player(n)));
    const hooks = await Promise.all(players.map((p, i) => createWebhook(p, `${receiver.url}/seating${i}`, ['PLAYER_JOINED', 'PLAYER_LEFT'])));
    const created = (await players[0].request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 4 } })).createMatch;
    const join = async (i: number) => (await players[i].request<{ joinMatch: MatchT }>(M_JOIN, { id: created.id })).joinMatch;
    const hugo = await join(1);
    const ivan = await join(2);
    const { leaveMatch } = await players[2].request<{ leaveMatch: { version: number } }>(
      'mutation($id: ID!) { leaveMatch(matchId: $id) { version } }',
      { id: created.id },
    );
    const got = (i: number) =>
      receiver
        .at(`/seating${i}`)
        .map((r) => verified(hooks[i].secret, r))
        .sort((x, y) => Number(x.data.matchVersion) - Number(y.data.matchVersion));
    await eventually(
      () => [got(0), got(1)],
      ([a, b]) => a.length >= 3 && b.length >= 2,
      'the seating messages',
    );
    const joined = (seat: number, matchVersion: number, joinedSeat: number) => ({
      type: 'PLAYER_JOINED',
      data: { matchId: created.id, matchVersion, seat, joinedSeat },
    });
    const left = (seat: number, matchVersion: number, leftSeat: number) => ({
      type: 'PLAYER_LEFT',
      data: { matchId: created.id, matchVersion, seat, leftSeat },
    });
    expect(got(0)).toMatchObject([
      joined(0, hugo.version, hugo.mySeat!),
      joined(0, ivan.version, ivan.mySeat!),
      left(0, leaveMatch.version, ivan.mySeat!),
    ]);
    expect(got(1)).toMatchObject([joined(hugo.mySeat!, ivan.version, ivan.mySeat!), left(hugo.mySeat!, leaveMatch.version, ivan.mySeat!)]);
    await new Promise((done) => setTimeout(done, 300));
    expect([got(0).length, got(1).length, got(2).length]).toEqual([3, 2, 0]);
  });

  it('lists the latest 20 attempts of a delivery, oldest first, and counts them all', async () => {
    // Redeliveries grow one message's log without bound; a page of deliveries must stay bounded.
    const p = await app.player('redeliverer');
    receiver.answer = () => ({ status: 200 });
    const w = await createWebhook(p, `${receiver.url}/log`, ['MATCH_STARTED']);
    await botMatch(p);
    const [d] = await eventually(
      () => deliveries(p, w.id),
      (ds) => ds[0]?.status === 'DELIVERED',
      'the delivery',
    );
    const prisma = app.server.app.get(PrismaService);
    const first = new Date(d.attempts[0].at).getTime();
    await prisma.webhookAttempt.createMany({
      data: Array.from({ length: 30 }, (_, i) => ({ messageId: d.id, at: new Date(first + 1000 * (i + 1)), statusCode: 500, durationMs: i + 1 })),
    });
    const [listed] = await deliveries(p, w.id);
    expect(listed.attemptCount).toBe(31);
    expect(listed.attempts.map((a) => a.durationMs)).toEqual(Array.from({ length: 20 }, (_, i) => i + 11));
  });

  it('retries a receiver that fails twice: the third attempt delivers, with the same webhook-id', async () => {
    const p = await app.player('carol');
    receiver.answer = (r, nth) =>
      r.path === '/flaky' && nth < 2 ? { status: nth === 0 ? 503 : 500, headers: { 'retry-after': '0' } } : { status: 200 };
    const w = await createWebhook(p, `${receiver.url}/flaky`, ['MATCH_STARTED']);
    await botMatch(p);
    const got = await eventually(
      () => receiver.at('/flaky'),
      (rs) => rs.some((r) => r.answered === 200),
      'a delivery after two failures',
    );
    expect(got.map((r) => r.answered)).toEqual([503, 500, 200]);
    expect(new Set(got.map((r) => r.id)).size).toBe(1);
    for (const r of got) expect(verified(w.secret, r).type).toBe('MATCH_STARTED');
    const [d] = await eventually(
      () => deliveries(p, w.id),
      (ds) => ds[0]?.status === 'DELIVERED',
      'the log',
    );
    expect(d.attempts.map((a) => a.statusCode)).toEqual([503, 500, 200]);
    expect(d.webhookMessageId).toBe(got[0].id);

    // Redelivery sends the same message again, with the same webhook-id, and logs the attempt.
    const again = await p.request<{ redeliverWebhook: { id: string; webhookMessageId: string } }>(M_REDELIVER, { id: d.id });
    expect(again.redeliverWebhook).toMatchObject({ id: d.id, webhookMessageId: d.webhookMessageId });
    const all = await eventually(
      () => receiver.at('/flaky'),
      (rs) => rs.length === 4 && rs[3].answered === 200,
      'the redelivery',
    );
    expect(all[3].id).toBe(d.webhookMessageId);
    expect(verified(w.secret, all[3]).type).toBe('MATCH_STARTED');
    await eventually(
      () => deliveries(p, w.id),
      (ds) => ds[0].status === 'DELIVERED' && ds[0].attempts.length === 4,
      'the logged redelivery',
    );
  });

  it('never sends a message twice at once: a redelivery while its attempt is in flight adds nothing', async () => {
    const p = await app.player('jane');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    receiver.answer = (r) => (r.path === '/jane' ? { status: 200, after: held } : { status: 200 });
    try {
      const w = await createWebhook(p, `${receiver.url}/jane`, ['MATCH_STARTED']);
      await botMatch(p);
      await eventually(
        () => receiver.at('/jane'),
        (rs) => rs.length === 1,
        'the attempt in flight',
      );
      const [d] = await deliveries(p, w.id);
      const during = await p.request<{ redeliverWebhook: { status: string } }>(M_REDELIVER, { id: d.id });
      expect(during.redeliverWebhook.status).toBe('PENDING');
      // Sweeps run every 50 ms: a message made due would have gone out again by now.
      await new Promise((r) => setTimeout(r, 500));
      expect(receiver.at('/jane')).toHaveLength(1);
      release();
      await eventually(
        () => deliveries(p, w.id),
        (ds) => ds[0]?.status === 'DELIVERED',
        'the attempt recorded',
      );
      // Once that attempt is over, a redelivery sends it again, with the same webhook-id.
      await p.request(M_REDELIVER, { id: d.id });
      const both = await eventually(
        () => receiver.at('/jane'),
        (rs) => rs.length === 2 && rs[1].answered === 200,
        'the redelivery',
      );
      expect(both[1].headers['webhook-id']).toBe(both[0].headers['webhook-id']);
    } finally {
      release();
      receiver.answer = () => ({ status: 200 });
    }
  });

  it('gives up after the schedule: the message fails, the endpoint stays enabled', async () => {
    const p = await app.player('dave');
    receiver.answer = (r) => (r.path === '/down' ? { status: 500 } : { status: 200 });
    const w = await createWebhook(p, `${receiver.url}/down`, ['MATCH_STARTED']);
    await botMatch(p);
    const [d] = await eventually(
      () => deliveries(p, w.id),
      (ds) => ds[0]?.status === 'FAILED',
      'a failed message',
    );
    expect(d.attempts.map((a) => a.statusCode)).toEqual([500, 500, 500, 500]); // the first attempt and three retries
    const { me } = await p.request<{ me: { webhooks: { enabled: boolean; failingSince: string | null }[] } }>(Q_MY_WEBHOOKS);
    expect(me.webhooks[0]).toMatchObject({ enabled: true, failingSince: expect.any(String) });
  });

  it('disables an endpoint that answers 410 Gone, and sends it nothing more', async () => {
    const p = await app.player('erin');
    receiver.answer = (r) => (r.path === '/gone' ? { status: 410 } : { status: 200 });
    const w = await createWebhook(p, `${receiver.url}/gone`, ['MATCH_STARTED']);
    await botMatch(p);
    const { me } = await eventually(
      () => p.request<{ me: { webhooks: { enabled: boolean; disabledReason: string | null }[] } }>(Q_MY_WEBHOOKS),
      (r) => !r.me.webhooks[0].enabled,
      'the endpoint disabled',
    );
    expect(me.webhooks[0].disabledReason).toMatch(/410/);
    const [d] = await deliveries(p, w.id);
    expect(d).toMatchObject({ status: 'FAILED', attempts: [{ statusCode: 410 }] });
    // No message is written for a disabled endpoint, and redelivery is refused until it is enabled again.
    await botMatch(p);
    expect(await deliveries(p, w.id)).toHaveLength(1);
    expect(await p.errorCode(M_REDELIVER, { id: d.id })).toBe('BAD_USER_INPUT');
    expect(receiver.at('/gone')).toHaveLength(1);
    const enabled = await p.request<{ updateWebhook: { enabled: boolean } }>(M_UPDATE_WEBHOOK, { id: w.id, input: { enabled: true } });
    expect(enabled.updateWebhook.enabled).toBe(true);
  });

  it('after a secret rotation, signs with both secrets (space-separated) and either one verifies', async () => {
    const p = await app.player('frank');
    const w = await createWebhook(p, `${receiver.url}/rotated`, ['MATCH_STARTED']);
    const { rotateWebhookSecret } = await p.request<{ rotateWebhookSecret: { secret: string } }>(M_ROTATE_WEBHOOK, { id: w.id });
    const fresh = rotateWebhookSecret.secret;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(w.secret);
    await botMatch(p);
    const [r] = await eventually(
      () => receiver.at('/rotated'),
      (rs) => rs.length === 1,
      'a message after the rotation',
    );
    expect(String(r.headers['webhook-signature']).split(' ')).toEqual([expect.stringMatching(/^v1,/), expect.stringMatching(/^v1,/)]);
    expect(verified(fresh, r).type).toBe('MATCH_STARTED');
    expect(verified(w.secret, r).type).toBe('MATCH_STARTED');
    // A receiver that only checks one signature, with the new secret alone, verifies too.
    const [first] = String(r.headers['webhook-signature']).split(' ');
    expect(verified(fresh, { ...r, headers: { ...r.headers, 'webhook-signature': first } }).type).toBe('MATCH_STARTED');
  });

  it("keeps a player's endpoints to themselves", async () => {
    const [owner, other] = [await app.player('owner'), await app.player('other')];
    const w = await createWebhook(owner, `${receiver.url}/private`, ['TURN']);
    expect(await other.errorCode(M_ROTATE_WEBHOOK, { id: w.id })).toBe('NOT_FOUND');
    expect(await other.errorCode(`query($id: ID!) { webhookDeliveries(webhookId: $id) { edges { cursor } } }`, { id: w.id })).toBe('NOT_FOUND');
    // Another player's Player object (a seat of a match) does not show its webhooks.
    const m = (await owner.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } })).createMatch;
    expect(await other.errorCode(`query($id: ID!) { match(id: $id) { seats { player { webhooks { id } } } } }`, { id: m.id })).toBe('FORBIDDEN');
  });

  it("refuses a new player's webhooks in registerPlayer without losing the token (shown only there)", async () => {
    const { body } = await app.anon.raw('mutation($name: String!) { registerPlayer(name: $name) { token player { id webhooks { id } } } }', {
      name: 'newcomer',
    });
    const data = body.data as { registerPlayer: { token: string; player: { id: string; webhooks: unknown } } } | null;
    expect(data?.registerPlayer).toMatchObject({ token: expect.any(String), player: { id: expect.any(String), webhooks: null } });
    expect(body.errors).toEqual([
      expect.objectContaining({ path: ['registerPlayer', 'player', 'webhooks'], extensions: expect.objectContaining({ code: 'FORBIDDEN' }) }),
    ]);
    // The token works.
    const { me } = await new GqlClient(app.url, data!.registerPlayer.token).request<{ me: { id: string; webhooks: unknown[] } }>(
      '{ me { id webhooks { id } } }',
    );
    expect(me).toEqual({ id: data!.registerPlayer.player.id, webhooks: [] });
  });
});

describe('webhooks without WEBHOOK_ALLOW_PRIVATE (the default)', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => ({ receiver, app } = await startReceiverAndApp({ WEBHOOK_MAX_PER_PLAYER: '2', SWEEP_INTERVAL_MS: '50' })));
  afterAll(() => closeReceiverAndApp({ receiver, app }));

  it('refuses http:// and private, loopback and link-local addresses', async () => {
    const p = await app.player();
    for (const url of [
      `${receiver.url}/hook`,
      'http://example.com/hook',
      'https://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://192.168.0.10/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[fd00::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://localhost/hook',
      'not a url',
    ]) {
      expect(await p.errorCode(M_CREATE_WEBHOOK, { input: { url, events: ['TURN'] } })).toBe('BAD_USER_INPUT');
    }
  });

  it('checks the address again at delivery, after DNS resolution', async () => {
    // An endpoint whose name resolved to a public address when saved, and to loopback now.
    const p = await app.player('rebinder');
    const prisma = app.server.app.get(PrismaService);
    const port = new URL(receiver.url).port;
    const w = await prisma.webhook.create({
      data: { playerId: p.id, url: `https://localhost:${port}/hook`, events: ['MATCH_STARTED'], secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    });
    await botMatch(p);
    const [d] = await eventually(
      () => deliveries(p, w.id),
      (ds) => (ds[0]?.attempts.length ?? 0) > 0,
      'an attempt',
    );
    expect(d.attempts[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(/not a public address/) });
    // The owner sees that the address was refused, not what the name resolved to inside this network.
    expect(d.attempts[0].error).not.toMatch(/127\.0\.0\.1|::1/);
    expect(receiver.received).toHaveLength(0);
  });

  it('caps the endpoints of a player (TOO_MANY_WEBHOOKS)', async () => {
    const p = await app.player();
    const input = { url: 'https://hooks.example.com/dominoes', events: ['TURN'] };
    await p.request(M_CREATE_WEBHOOK, { input });
    await p.request(M_CREATE_WEBHOOK, { input });
    const refused = await p.raw(M_CREATE_WEBHOOK, { input });
    expect(refused.body.errors?.[0].extensions).toMatchObject({ code: 'TOO_MANY_WEBHOOKS', limit: 2 });
  });
});

describe('webhooks of a WAITING match nobody joins', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  // 0.0005 h = 1.8 s; sweeps every 50 ms.
  beforeAll(
    async () =>
      ({ receiver, app } = await startReceiverAndApp({ WEBHOOK_ALLOW_PRIVATE: 'true', OPEN_MATCH_TTL_HOURS: '0.0005', SWEEP_INTERVAL_MS: '50' })),
  );
  afterAll(() => closeReceiverAndApp({ receiver, app }));

  it('sends MATCH_EXPIRED to every player still seated when it expires', async () => {
    const [ann, bob] = [await app.player('ann'), await app.player('bob')];
    const hooks = await Promise.all([ann, bob].map((p, i) => createWebhook(p, `${receiver.url}/expiry${i}`, ['MATCH_EXPIRED'])));
    const created = (await ann.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 3 } })).createMatch;
    await bob.request(M_JOIN, { id: created.id });
    const [r0, r1] = await eventually(
      () => [receiver.at('/expiry0'), receiver.at('/expiry1')],
      ([a, b]) => a.length >= 1 && b.length >= 1,
      'the expiry messages',
    );
    const expired = await viewOf(ann, created.id);
    expect(expired.status).toBe('ABANDONED');
    expect(verified(hooks[0].secret, r0[0])).toMatchObject({
      type: 'MATCH_EXPIRED',
      data: { matchId: created.id, matchVersion: expired.version, seat: 0 },
    });
    expect(verified(hooks[1].secret, r1[0])).toMatchObject({
      type: 'MATCH_EXPIRED',
      data: { matchId: created.id, matchVersion: expired.version, seat: 1 },
    });
  });
});
