import { PrismaService } from '../src/database/prisma.service.js';
import { holdBounds } from '../src/webhooks/retry-policy.js';
import { WebhookDeliveriesRepository } from '../src/webhooks/webhook-deliveries.repository.js';
import type { RecordedAttempt } from '../src/webhooks/webhook-records.js';
import { startTestApp, type TestApp } from './support/app.js';
import type { GqlClient } from './support/gql.js';
import { M_REDELIVER, M_UPDATE_WEBHOOK } from './support/webhooks.js';

/**
 * The holds of failing endpoints (docs/webhooks.md, "A failing endpoint is probed, not flooded"),
 * on the repository's own statements against PostgreSQL: what recording outcomes does to an
 * endpoint, what the claim then takes, what the owner's mutations lift. The sweeper is kept out
 * of the way (it sweeps at boot, then every 10 minutes), so each claim here is the test's own.
 */
describe('the hold of a failing endpoint', () => {
  let app: TestApp;
  let prisma: PrismaService;
  let deliveries: WebhookDeliveriesRepository;
  let owner: GqlClient;
  /** Holds from 1 s to 1 h, as a schedule of 1 s … 3600 s gives. */
  const hold = holdBounds([1_000, 60_000, 3_600_000]);
  beforeAll(async () => {
    app = await startTestApp({ SWEEP_INTERVAL_MS: '600000' });
    prisma = app.server.app.get(PrismaService);
    deliveries = app.server.app.get(WebhookDeliveriesRepository);
    owner = await app.player('owner');
  });
  afterEach(async () => {
    await prisma.webhookMessage.deleteMany();
    await prisma.webhook.deleteMany();
  });
  afterAll(() => app.close());

  const endpoint = async (playerId = owner.id, data: { failingSince?: Date; failureStreak?: number; heldUntil?: Date; disabledAt?: Date } = {}) =>
    (await prisma.webhook.create({ data: { playerId, url: 'https://hooks.example.com/x', events: ['TURN'], secret: 'whsec_x', ...data } })).id;
  /** `n` due messages, the oldest first (a minute ago and on), `attempt` tries made. */
  const messages = async (webhookId: string, n: number, attempt = 0, agoMs = 60_000): Promise<string[]> => {
    const at = Date.now() - agoMs;
    const rows = Array.from({ length: n }, (_, i) => ({
      webhookId,
      msgId: `msg_${webhookId.slice(0, 8)}_${attempt}_${agoMs}_${i}`,
      type: 'TURN',
      body: '{}',
      attempt,
      dueAt: new Date(at + i),
    }));
    await prisma.webhookMessage.createMany({ data: rows });
    return (await prisma.webhookMessage.findMany({ where: { msgId: { in: rows.map((r) => r.msgId) } }, orderBy: { dueAt: 'asc' } })).map((m) => m.id);
  };
  const outcome = (
    messageId: string,
    webhookId: string,
    ok: boolean,
    at = new Date(),
    askedMs = 0,
    claimedUntil: Date | null = null,
  ): RecordedAttempt => ({
    messageId,
    webhookId,
    claimedUntil,
    attempt: { at, statusCode: ok ? 200 : askedMs > 0 ? 429 : 500, error: null, durationMs: 5 },
    status: ok ? 'DELIVERED' : 'PENDING',
    dueInMs: ok ? null : 1_000,
    succeeded: ok,
    askedMs,
    disable: null,
  });
  const row = (id: string) => prisma.webhook.findUniqueOrThrow({ where: { id } });
  /** How far ahead the endpoint is held, in seconds (null: not held). */
  const heldFor = async (id: string) => {
    const { heldUntil } = await row(id);
    return heldUntil === null ? null : (heldUntil.getTime() - Date.now()) / 1000;
  };

  it('holds nothing for a few failures; five in a row hold it for the first delay, and a later one never shortens a hold', async () => {
    const w = await endpoint();
    const ms = await messages(w, 6);
    for (let i = 0; i < 4; i++) await deliveries.recordAttempts([outcome(ms[i], w, false)], hold);
    expect(await row(w)).toMatchObject({ failureStreak: 4, failingSince: expect.any(Date), heldUntil: null });
    await deliveries.recordAttempts([outcome(ms[4], w, false)], hold);
    expect(await heldFor(w)).toBeGreaterThan(0.5);
    expect(await heldFor(w)).toBeLessThanOrEqual(1.1);
    // A Retry-After of 10 minutes holds it that long; the failure after it leaves that hold as it is.
    await deliveries.recordAttempts([outcome(ms[5], w, false, new Date(), 600_000)], hold);
    const asked = (await row(w)).heldUntil!;
    expect((asked.getTime() - Date.now()) / 1000).toBeGreaterThan(590);
    await deliveries.recordAttempts([outcome(ms[0], w, false)], hold);
    expect((await row(w)).heldUntil).toEqual(asked);
  });

  it('holds at once for a Retry-After, however short the streak', async () => {
    const w = await endpoint();
    const [m] = await messages(w, 1);
    await deliveries.recordAttempts([outcome(m, w, false, new Date(), 120_000)], hold);
    expect(await row(w)).toMatchObject({ failureStreak: 1 });
    expect(await heldFor(w)).toBeGreaterThan(110);
  });

  it('holds as long as the endpoint has been failing, from its row as the statement finds it, up to the longest delay', async () => {
    const w = await endpoint(owner.id, { failingSince: new Date(Date.now() - 20 * 60_000), failureStreak: 7 });
    const [m] = await messages(w, 1);
    await deliveries.recordAttempts([outcome(m, w, false)], hold);
    expect(await heldFor(w)).toBeGreaterThan(20 * 60 - 10);
    expect(await heldFor(w)).toBeLessThan(20 * 60 + 10);
    await prisma.webhook.update({ where: { id: w }, data: { failingSince: new Date(Date.now() - 3 * 3_600_000), heldUntil: null } });
    await deliveries.recordAttempts([outcome(m, w, false)], hold);
    expect(await heldFor(w)).toBeGreaterThan(3_600 - 10);
    expect(await heldFor(w)).toBeLessThanOrEqual(3_600);
  });

  it('ends streak and hold with a delivery; the failures after it in the same statement start a new streak', async () => {
    const w = await endpoint(owner.id, {
      failingSince: new Date(Date.now() - 3_600_000),
      failureStreak: 9,
      heldUntil: new Date(Date.now() + 60_000),
    });
    const ms = await messages(w, 3);
    const t = Date.now();
    const after = new Date(t + 2);
    await deliveries.recordAttempts(
      [outcome(ms[0], w, false, new Date(t)), outcome(ms[1], w, true, new Date(t + 1)), outcome(ms[2], w, false, after)],
      hold,
    );
    expect(await row(w)).toMatchObject({ failureStreak: 1, failingSince: after, heldUntil: null });
    await deliveries.recordAttempts([outcome(ms[2], w, true)], hold);
    expect(await row(w)).toMatchObject({ failureStreak: 0, failingSince: null, heldUntil: null });
  });

  it('counts no late outcome: one whose claim another instance took over, or whose message was delivered since, is logged and changes nothing else', async () => {
    const w = await endpoint();
    const [m] = await messages(w, 1);
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // Instance A claims it and stalls past its lease; B claims it again.
    const [a] = await deliveries.claimDue(20, 50, 10);
    await sleep(100);
    const [b] = await deliveries.claimDue(20, 60_000, 10);
    expect([a.id, b.id]).toEqual([m, m]);
    expect(b.claimedUntil!.getTime()).toBeGreaterThan(a.claimedUntil!.getTime());
    const message = () => prisma.webhookMessage.findUniqueOrThrow({ where: { id: m } });
    const attempts = () => prisma.webhookAttempt.count({ where: { messageId: m } });
    // A's failure arrives while B's attempt is in flight: B's claim stands.
    await deliveries.recordAttempts([outcome(m, w, false, new Date(), 0, a.claimedUntil)], hold);
    expect(await message()).toMatchObject({ status: 'PENDING', attempt: 0, claimedUntil: b.claimedUntil });
    expect(await attempts()).toBe(1);
    // B delivers; then five more of A's late failures (a batch) come in: the message stays delivered, the endpoint healthy.
    await deliveries.recordAttempts([outcome(m, w, true, new Date(), 0, b.claimedUntil)], hold);
    const late = Array.from({ length: 5 }, () => outcome(m, w, false, new Date(), 0, a.claimedUntil));
    await deliveries.recordAttempts(late, hold);
    await deliveries.recordAttempts([outcome(m, w, false, new Date(), 0, b.claimedUntil)], hold);
    expect(await message()).toMatchObject({ status: 'DELIVERED', attempt: 1, dueAt: null, claimedUntil: null });
    expect(await row(w)).toMatchObject({ failureStreak: 0, failingSince: null, heldUntil: null });
    expect(await attempts()).toBe(8);
  });

  it('counts no stale outcome beside the current one of the same message in one batch, whichever came later', async () => {
    const w = await endpoint();
    const [m] = await messages(w, 1);
    const [a] = await deliveries.claimDue(20, 50, 10);
    await new Promise((r) => setTimeout(r, 100));
    const [b] = await deliveries.claimDue(20, 60_000, 10);
    const now = Date.now();
    await deliveries.recordAttempts(
      [outcome(m, w, true, new Date(now), 0, b.claimedUntil), outcome(m, w, false, new Date(now + 5), 0, a.claimedUntil)],
      hold,
    );
    expect((await prisma.webhookMessage.findUniqueOrThrow({ where: { id: m } })).status).toBe('DELIVERED');
    expect(await row(w)).toMatchObject({ failureStreak: 0, failingSince: null, heldUntil: null });
  });

  it('offers one probe once the hold is over: a message not tried yet, first among its owner’s; none while it is in flight, none before the hold ends', async () => {
    const held = await endpoint(owner.id, { failingSince: new Date(Date.now() - 60_000), failureStreak: 6, heldUntil: new Date(Date.now() - 1_000) });
    // Its newest messages have been tried; the untried ones are older. The owner's other endpoint
    // has more than a batch of messages due, all older: ranked by age alone, they would fill it.
    await messages(held, 5, 2, 10_000);
    const untried = await messages(held, 5, 0, 30_000);
    const healthy = await endpoint();
    await messages(healthy, 20, 0, 120_000);
    const claimed = await deliveries.claimDue(20, 60_000, 10);
    expect(claimed.filter((m) => m.webhookId === held).map((m) => m.id)).toEqual([untried.at(-1)]);
    expect(claimed.filter((m) => m.webhookId === healthy)).toHaveLength(9);
    // The probe in flight: nothing more of that endpoint, whatever else is due.
    expect((await deliveries.claimDue(20, 60_000, 10)).filter((m) => m.webhookId === held)).toEqual([]);
    // Nothing in flight, but held again: nothing either.
    await prisma.webhookMessage.updateMany({ where: { webhookId: held }, data: { claimedUntil: null, dueAt: new Date(Date.now() - 1_000) } });
    await prisma.webhook.update({ where: { id: held }, data: { heldUntil: new Date(Date.now() + 60_000) } });
    expect((await deliveries.claimDue(20, 60_000, 10)).filter((m) => m.webhookId === held)).toEqual([]);
  });

  it("leaves the others' share of a claim whole however many endpoints are held", async () => {
    const holder = await app.player('holder');
    for (let i = 0; i < 30; i++)
      await messages(await endpoint(holder.id, { failingSince: new Date(), failureStreak: 5, heldUntil: new Date(Date.now() + 60_000) }), 2);
    const healthy = await endpoint();
    await messages(healthy, 20);
    const claimed = await deliveries.claimDue(10, 60_000, 10);
    expect(claimed.map((m) => m.webhookId)).toEqual(Array(10).fill(healthy));
  });

  it('is lifted by a redelivery (that message goes next), a new url or enabling a disabled endpoint; enabling one that is not disabled lifts nothing', async () => {
    const failing = { failingSince: new Date(Date.now() - 60_000), failureStreak: 6, heldUntil: new Date(Date.now() + 3_600_000) };
    const w = await endpoint(owner.id, failing);
    await messages(w, 3);
    expect(await owner.request(M_UPDATE_WEBHOOK, { id: w, input: { enabled: true } })).toBeTruthy();
    expect(await row(w)).toMatchObject(failing);

    const [m] = await messages(w, 1, 3, 30_000);
    await owner.request(M_REDELIVER, { id: m });
    expect(await heldFor(w)).toBeLessThanOrEqual(0);
    expect((await deliveries.claimDue(20, 60_000, 10)).map((c) => c.id)).toEqual([m]);

    const moved = await endpoint(owner.id, failing);
    await owner.request(M_UPDATE_WEBHOOK, { id: moved, input: { url: 'https://hooks.example.net/y' } });
    expect(await row(moved)).toMatchObject({ failingSince: null, failureStreak: 0, heldUntil: expect.any(Date) });
    expect(await heldFor(moved)).toBeLessThanOrEqual(0);

    const disabled = await endpoint(owner.id, { ...failing, disabledAt: new Date() });
    const Q = '{ me { webhooks { id enabled heldUntil } } }';
    const listed = async () =>
      (await owner.request<{ me: { webhooks: { id: string; heldUntil: string | null }[] } }>(Q)).me.webhooks.find((x) => x.id === disabled);
    expect(await listed()).toMatchObject({ heldUntil: null }); // its messages fail without an attempt: nothing to wait for
    await owner.request(M_UPDATE_WEBHOOK, { id: disabled, input: { enabled: true } });
    expect(await row(disabled)).toMatchObject({ disabledAt: null, failingSince: null, failureStreak: 0, heldUntil: expect.any(Date) });
    expect(await heldFor(disabled)).toBeLessThanOrEqual(0);
    expect(await listed()).toMatchObject({ heldUntil: expect.any(String) });
  });
});
