import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/config.js';
import type { DueWorkSweeper } from '../due-work/due-work.sweeper.js';
import { WebhookDeliveryKind } from './webhook-delivery.kind.js';
import type { DueMessage } from './webhook-records.js';
import type { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';

/** The configuration the kind reads (the rest of AppConfig is not used by it). */
const configOf = (env: AppConfig['env'], allowPrivate = false) =>
  ({
    env,
    sweep: { intervalMs: 1000, batchSize: 20, leaseMs: 15_000, graceMs: 2000 },
    webhooks: { retryScheduleMs: [1000], allowPrivate, maxPerPlayer: 10, timeoutMs: 1000 },
  }) as unknown as AppConfig;

/** A kind on this repository, with a sweeper that only takes its registration. */
const kindOn = (repo: Partial<WebhookDeliveriesRepository>) =>
  new WebhookDeliveryKind(repo as WebhookDeliveriesRepository, configOf('test'), { register: () => {} } as unknown as DueWorkSweeper);

/** WEBHOOK_ALLOW_PRIVATE stays possible in production, but never silently. */
describe('WebhookDeliveryKind at startup', () => {
  const start = (env: AppConfig['env'], allowPrivate: boolean) => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => {});
    const registered: unknown[] = [];
    const sweeper = { register: (kind: unknown) => registered.push(kind) } as unknown as DueWorkSweeper;
    new WebhookDeliveryKind({} as WebhookDeliveriesRepository, configOf(env, allowPrivate), sweeper);
    const messages = warn.mock.calls.map((c) => String(c[0]));
    warn.mockRestore();
    return { messages, registered };
  };

  it('warns when private addresses are allowed in production', () => {
    const { messages, registered } = start('production', true);
    expect(messages).toEqual([expect.stringMatching(/WEBHOOK_ALLOW_PRIVATE=true in production/)]);
    expect(registered).toHaveLength(1); // and still delivers
  });

  it.each<[AppConfig['env'], boolean]>([
    ['production', false],
    ['development', true],
    ['test', true],
  ])('says nothing in %s with WEBHOOK_ALLOW_PRIVATE=%s', (env, allowPrivate) => {
    expect(start(env, allowPrivate).messages).toEqual([]);
  });
});

describe('WebhookDeliveryKind claims', () => {
  it("hands a released message's place back to its owner's count, as a run does", async () => {
    const running: Map<string, number>[] = [];
    const message = (id: string) => ({ id, ownerId: 'owner-1', webhookId: 'hook-1' }) as DueMessage;
    const repo = {
      prune: () => Promise.resolve(),
      claimDue: (_limit: number, _lease: number, _perOwner: number, inFlight: ReadonlyMap<string, number>) => {
        running.push(new Map(inFlight));
        return Promise.resolve([message('a'), message('b')]);
      },
    } as unknown as Partial<WebhookDeliveriesRepository>;
    const kind = kindOn(repo);
    expect(await kind.claim(20, 15_000)).toEqual(['a', 'b']);
    // The sweeper does not run them now (backing off): the owner's count goes back to nothing.
    kind.release('a');
    kind.release('b');
    kind.release('b'); // once only
    await kind.claim(20, 15_000);
    expect(running).toEqual([new Map(), new Map()]);
  });

  it("keeps the owner's count right when a message is claimed again while its first run is still going", async () => {
    const running: Map<string, number>[] = [];
    let settled!: () => void;
    const repo = {
      prune: () => Promise.resolve(),
      // A message of a disabled endpoint: its run settles it, and that takes until `settled()`.
      claimDue: (_limit: number, _lease: number, _perOwner: number, inFlight: ReadonlyMap<string, number>) => {
        running.push(new Map(inFlight));
        return Promise.resolve([{ id: 'a', ownerId: 'owner-1', webhookId: 'hook-1', status: 'PENDING', disabledAt: new Date() } as DueMessage]);
      },
      settle: () => new Promise<void>((resolve) => (settled = resolve)),
    } as unknown as Partial<WebhookDeliveriesRepository>;
    const kind = kindOn(repo);
    await kind.claim(20, 15_000);
    const first = kind.run('a');
    await kind.claim(20, 15_000); // its lease outlived by the run: claimed again
    kind.release('a'); // the sweeper does not run this second claim now
    settled();
    await first;
    await kind.claim(20, 15_000);
    expect(running).toEqual([new Map(), new Map([['owner-1', 1]]), new Map()]);
  });
});

describe('WebhookDeliveryKind retention', () => {
  it('prunes batch after batch until one comes back short, then not again within the minute', async () => {
    const deleted = [1000, 1000, 1000, 400, 1000];
    const calls: number[] = [];
    const repo = {
      prune: (limit: number) => {
        calls.push(limit);
        return Promise.resolve(deleted.shift());
      },
      claimDue: () => Promise.resolve([]),
    } as unknown as Partial<WebhookDeliveriesRepository>;
    const kind = kindOn(repo);
    await kind.claim(20, 15_000);
    expect(calls).toEqual([1000, 1000, 1000, 1000]);
    await kind.claim(20, 15_000);
    expect(calls).toHaveLength(4);
  });
});
