import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/config.js';
import type { DueWorkSweeper } from '../due-work/due-work.sweeper.js';
import { WebhookDeliveryKind } from './webhook-delivery.kind.js';
import type { WebhooksRepository } from './webhooks.repository.js';

/** WEBHOOK_ALLOW_PRIVATE stays possible in production, but never silently. */
describe('WebhookDeliveryKind at startup', () => {
  const start = (env: AppConfig['env'], allowPrivate: boolean) => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => {});
    const registered: unknown[] = [];
    const config = {
      env,
      sweep: { intervalMs: 1000, batchSize: 20, leaseMs: 15_000, graceMs: 2000 },
      webhooks: { retryScheduleMs: [1000], allowPrivate, maxPerPlayer: 10, timeoutMs: 1000 },
    } as unknown as AppConfig;
    const sweeper = { register: (kind: unknown) => registered.push(kind) } as unknown as DueWorkSweeper;
    new WebhookDeliveryKind({} as WebhooksRepository, config, sweeper);
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
