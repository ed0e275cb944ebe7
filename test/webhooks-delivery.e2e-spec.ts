import { PrismaService } from '../src/database/prisma.service.js';
import type { TestApp } from './support/app.js';
import { eventually } from './support/eventually.js';
import { closeReceiverAndApp, type Received, startReceiverAndApp, type WebhookReceiver } from './support/webhook-receiver.js';
import { botMatch, createWebhook, deliveries, M_DELETE_WEBHOOK, M_REDELIVER } from './support/webhooks.js';

/** How delivery copes with receivers that misbehave: none of them may hold up anyone else's messages. */
describe('a receiver that never answers, beside a healthy one', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  // The production timeout and batch: a hanging attempt holds its slot for 10 s.
  beforeAll(
    async () =>
      ({ receiver, app } = await startReceiverAndApp({
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_TIMEOUT_MS: '10000',
        SWEEP_BATCH_SIZE: '20',
        SWEEP_INTERVAL_MS: '50',
      })),
  );
  afterAll(() => closeReceiverAndApp({ receiver, app }));

  it("delivers the healthy endpoint's message well within one timeout while the other's backlog hangs", async () => {
    // As the healthy message arrives: were the attempts to the other receiver all still open?
    let neverStillOpen: boolean | undefined;
    receiver.answer = (r) => {
      if (r.path === '/healthy') neverStillOpen ??= receiver.at('/never').every((n) => !n.closed);
      return r.path === '/never' ? 'hang' : { status: 200 };
    };
    const stuck = await app.player('stuck');
    const never = await createWebhook(stuck, `${receiver.url}/never`, ['TURN']);
    // A backlog of 100 messages to it, all due (older than anything written from here on).
    const prisma = app.server.app.get(PrismaService);
    const at = Date.now() - 60_000;
    await prisma.webhookMessage.createMany({
      data: Array.from({ length: 100 }, (_, i) => ({
        webhookId: never.id,
        msgId: `msg_backlog${i}`,
        type: 'TURN',
        body: '{}',
        dueAt: new Date(at + i),
      })),
    });
    await eventually(
      () => receiver.at('/never').length,
      (n) => n >= 2,
      'the first attempts to the receiver that never answers',
    );

    // Then another player's message: it goes out while those attempts still hang.
    const healthy = await app.player('healthy');
    await createWebhook(healthy, `${receiver.url}/healthy`, ['MATCH_STARTED']);
    await botMatch(healthy);
    await eventually(
      () => receiver.at('/healthy'),
      (rs) => rs.length === 1 && rs[0].answered === 200,
      "the healthy endpoint's message",
    );
    // Every attempt to the hanging receiver was still open then: none had reached its timeout.
    expect(neverStillOpen).toBe(true);
  });

  it("holds one owner's hanging endpoints together to one batch, so several of them cannot take every slot", async () => {
    let hoardedThen: number | undefined; // the hoarder's attempts as another player's message arrives
    receiver.answer = (r) => {
      if (r.path === '/other') hoardedThen ??= hoarded();
      return r.path === '/never' || r.path.startsWith('/hoard') ? 'hang' : { status: 200 };
    };
    // Six endpoints of one player, 25 due messages each: 150 attempts that would hang, against
    // 100 slots (five batches of 20); one batch per endpoint would let them take every slot.
    const hoarder = await app.player('hoarder');
    const hooks: { id: string }[] = [];
    for (let i = 0; i < 6; i++) hooks.push(await createWebhook(hoarder, `${receiver.url}/hoard${i}`, ['TURN']));
    const prisma = app.server.app.get(PrismaService);
    const at = Date.now() - 60_000;
    await prisma.webhookMessage.createMany({
      data: hooks.flatMap((h, e) =>
        Array.from({ length: 25 }, (_, i) => ({ webhookId: h.id, msgId: `msg_hoard${e}_${i}`, type: 'TURN', body: '{}', dueAt: new Date(at + i) })),
      ),
    });
    const hoarded = () => hooks.reduce((n, _, e) => n + receiver.at(`/hoard${e}`).length, 0);
    await eventually(hoarded, (n) => n >= 20, "the hoarder's first attempts");

    const other = await app.player('other');
    await createWebhook(other, `${receiver.url}/other`, ['MATCH_STARTED']);
    await botMatch(other);
    await eventually(
      () => receiver.at('/other'),
      (rs) => rs.length === 1 && rs[0].answered === 200,
      "another player's message, while the hoarder's attempts hang",
    );
    // The hoarder had one batch in flight, no more: the rest of its messages wait for a slot of its own.
    expect(hoardedThen).toBe(20);
  });
});

describe('several owners whose receivers hang, holding every slot', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  // Batches of 2: 10 slots, 2 per owner. A hanging attempt holds its slot for 5 s (long enough
  // for the test's own requests on a loaded machine); a failed message is not due again during the test.
  beforeAll(
    async () =>
      ({ receiver, app } = await startReceiverAndApp({
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_TIMEOUT_MS: '5000',
        WEBHOOK_RETRY_SCHEDULE: '3600',
        SWEEP_BATCH_SIZE: '2',
        SWEEP_INTERVAL_MS: '50',
      })),
  );
  afterAll(() => closeReceiverAndApp({ receiver, app }));

  it("gives a slot that frees to another owner's message before the next of their backlogs", async () => {
    let slowThen: number | undefined; // the hanging attempts begun as another owner's message arrives
    receiver.answer = (r) => {
      if (r.path === '/other') slowThen ??= slowAttempts();
      return r.path.startsWith('/slow') ? 'hang' : { status: 200 };
    };
    // Five owners, one hanging endpoint each, 8 due messages each: 40 attempts, four rounds of the
    // 10 slots, each round as long as the timeout.
    const prisma = app.server.app.get(PrismaService);
    const at = Date.now() - 60_000;
    for (let o = 0; o < 5; o++) {
      const slow = await createWebhook(await app.player(`slow${o}`), `${receiver.url}/slow${o}`, ['TURN']);
      await prisma.webhookMessage.createMany({
        data: Array.from({ length: 8 }, (_, i) => ({
          webhookId: slow.id,
          msgId: `msg_slow${o}_${i}`,
          type: 'TURN',
          body: '{}',
          dueAt: new Date(at + i),
        })),
      });
    }
    const slowAttempts = () => [0, 1, 2, 3, 4].reduce((n, o) => n + receiver.at(`/slow${o}`).length, 0);
    await eventually(slowAttempts, (n) => n >= 10, 'every slot held by a hanging attempt');

    const other = await app.player('other');
    await createWebhook(other, `${receiver.url}/other`, ['MATCH_STARTED']);
    await botMatch(other);
    await eventually(
      () => receiver.at('/other'),
      (rs) => rs.length === 1 && rs[0].answered === 200,
      "another owner's message",
    );
    // It went out with the first slots that freed (the second round), not after the 40 hanging attempts.
    expect(slowThen).toBeLessThanOrEqual(20);
  });
});

describe('deliveries cut short', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  // A lease (max(SWEEP_LEASE_MS, timeout + 2 s)) far longer than the tests: an attempt sent twice
  // is the sender's doing, not a lease that ran out while a loaded machine recorded it.
  beforeAll(
    async () =>
      ({ receiver, app } = await startReceiverAndApp({
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_TIMEOUT_MS: '2000',
        SWEEP_LEASE_MS: '60000',
        SWEEP_INTERVAL_MS: '50',
      })),
  );
  afterAll(() => closeReceiverAndApp({ receiver, app }));

  it('closes the connection of a receiver that answers 200 and never ends the body, and records the attempt', async () => {
    receiver.answer = (r) => (r.path === '/stream' ? 'stream' : { status: 200 });
    const p = await app.player('streamed');
    const w = await createWebhook(p, `${receiver.url}/stream`, ['MATCH_STARTED']);
    await botMatch(p);
    const [r] = await eventually(
      () => receiver.at('/stream'),
      (rs) => rs.length === 1 && rs[0].closed,
      'the sender closing the connection',
    );
    expect(r.answered).toBe(200);
    const [d] = await eventually(
      () => deliveries(p, w.id),
      (ds) => ds[0]?.status === 'DELIVERED',
      'the attempt recorded',
    );
    expect(d.attempts).toEqual([expect.objectContaining({ statusCode: 200, error: null })]);
  });

  it('records the attempts of the other messages when one message vanished meanwhile (its endpoint deleted)', async () => {
    let release = () => {};
    const held = new Promise<void>((done) => (release = done));
    // Both endpoints answer at the same moment, so their attempts are recorded together.
    receiver.answer = (r) => (r.path === '/kept' || r.path === '/deleted' ? { status: 200, after: held } : { status: 200 });
    const p = await app.player('two-endpoints');
    const kept = await createWebhook(p, `${receiver.url}/kept`, ['MATCH_STARTED']);
    const deleted = await createWebhook(p, `${receiver.url}/deleted`, ['MATCH_STARTED']);
    await botMatch(p);
    await eventually(
      () => [receiver.at('/kept').length, receiver.at('/deleted').length],
      ([k, d]) => k === 1 && d === 1,
      'both messages in flight',
    );
    // Its message goes with it (cascade) while its attempt is in flight.
    expect(await p.request(M_DELETE_WEBHOOK, { id: deleted.id })).toEqual({ deleteWebhook: true });
    release();

    const [d] = await eventually(
      () => deliveries(p, kept.id),
      (ds) => ds[0]?.status === 'DELIVERED',
      "the kept endpoint's message delivered",
    );
    expect(d.attempts).toEqual([expect.objectContaining({ statusCode: 200 })]);
    expect(receiver.at('/kept')).toHaveLength(1); // sent once, not again when a lease ran out
  });
});

describe('a receiver that fails', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  // Holds from 1 s (the schedule's first delay), batches of 10 per owner.
  beforeAll(
    async () =>
      ({ receiver, app } = await startReceiverAndApp({
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1',
        SWEEP_BATCH_SIZE: '10',
        SWEEP_INTERVAL_MS: '50',
      })),
  );
  afterAll(() => closeReceiverAndApp({ receiver, app }));

  const Q_HOLD = `{ me { webhooks { id failingSince heldUntil } } }`;
  type Hold = { failingSince: string | null; heldUntil: string | null };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('is held once it fails in earnest and probed one message at a time; a Retry-After holds it as long as asked; a redelivery is the next probe, and a delivery sends the rest', async () => {
    // Failures are answered after 100 ms, so attempts in flight at once can be seen.
    let answer: 'fail' | 'slow down' | 'up' = 'fail';
    let held = false;
    let inFlight = 0;
    let overlapped = 0; // requests that came while another was unanswered, once the endpoint was held
    const sinceHeld: Received[] = [];
    receiver.answer = (r) => {
      if (r.path !== '/down') return { status: 200 };
      if (held) {
        sinceHeld.push(r);
        if (inFlight > 0) overlapped++;
      }
      if (answer === 'up') return { status: 200 };
      if (answer === 'slow down') return { status: 429, headers: { 'retry-after': '60' } };
      inFlight++;
      return { status: 500, after: sleep(100).then(() => inFlight--) };
    };
    const p = await app.player('failing');
    const w = await createWebhook(p, `${receiver.url}/down`, ['TURN']);
    const hold = async () => (await p.request<{ me: { webhooks: Hold[] } }>(Q_HOLD)).me.webhooks[0];
    const prisma = app.server.app.get(PrismaService);
    const at = Date.now() - 60_000;
    await prisma.webhookMessage.createMany({
      data: Array.from({ length: 40 }, (_, i) => ({ webhookId: w.id, msgId: `msg_down${i}`, type: 'TURN', body: '{}', dueAt: new Date(at + i) })),
    });

    // The first batch fails (more than five in a row): the endpoint is held.
    const failing = await eventually(hold, (h) => h.heldUntil !== null, 'the endpoint held after its first failures');
    held = true;
    expect(failing.failingSince).not.toBeNull();
    expect(receiver.at('/down').length).toBeLessThanOrEqual(10);
    const untried = (await deliveries(p, w.id)).filter((d) => d.attemptCount === 0);
    expect(untried.length).toBeGreaterThanOrEqual(30);
    for (const d of untried) expect(new Date(d.nextAttemptAt!).getTime()).toBeGreaterThanOrEqual(new Date(failing.heldUntil!).getTime());
    // Probes then, one at a time, the holds growing from 1 s: a few in 2.5 s, where 30 messages were due.
    await sleep(2500);
    expect(overlapped).toBe(0);
    expect(sinceHeld.length).toBeLessThanOrEqual(4);

    // A 429 with Retry-After: 60 holds it a minute: no probe meanwhile.
    answer = 'slow down';
    await eventually(hold, (h) => new Date(h.heldUntil!).getTime() > Date.now() + 50_000, 'the hold a 429 asked for');
    const asked = sinceHeld.length;
    await sleep(1500);
    expect(sinceHeld.length).toBe(asked);

    // Up again: a redelivery ends the hold and is the next probe; it is delivered, and so is the rest.
    answer = 'up';
    const again = untried.find((d) => !sinceHeld.some((r) => r.id === d.webhookMessageId))!;
    await p.request(M_REDELIVER, { id: again.id });
    const [next] = await eventually(
      () => sinceHeld.slice(asked),
      (rs) => rs.length >= 1,
      'the redelivered probe',
    );
    expect(next.id).toBe(again.webhookMessageId);
    // All but the message the 429 answered: that one waits out its own minute.
    const slowedDown = new Set(sinceHeld.filter((r) => r.answered === 429).map((r) => r.id));
    expect(slowedDown.size).toBe(1);
    const all = await eventually(
      () => deliveries(p, w.id),
      (ds) => ds.length === 40 && ds.every((d) => d.status === 'DELIVERED' || slowedDown.has(d.webhookMessageId)),
      'the backlog delivered',
    );
    const waiting = all.find((d) => slowedDown.has(d.webhookMessageId))!;
    expect(waiting.status).toBe('PENDING');
    expect(new Date(waiting.nextAttemptAt!).getTime()).toBeGreaterThan(Date.now() + 30_000);
    expect(await hold()).toMatchObject({ failingSince: null, heldUntil: null });
  });
});
