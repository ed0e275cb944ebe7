import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import type { DueWorkKind } from '../due-work/due-work-kind.js';
import { DueWorkSweeper } from '../due-work/due-work.sweeper.js';
import { AttemptLog } from './attempt-log.js';
import { askedDelay, holdBounds, nextStep } from './retry-policy.js';
import type { DueMessage } from './webhook-records.js';
import { WebhookSender } from './webhook-sender.js';
import { activeSecrets, signedHeaders } from './webhook-signer.js';
import type { WebhooksConfig } from '../config/webhooks.config.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';

/** Old messages are pruned at most this often, by whichever instance sweeps. */
const PRUNE_EVERY_MS = 60_000;
const PRUNE_BATCH = 1000;
/**
 * A prune deletes batch after batch until one comes back short, for at most this long: a minute
 * may add far more than one batch of messages (one per endpoint per event), and a backlog that
 * grew faster than a batch a minute would never drain.
 */
const PRUNE_BUDGET_MS = 1000;

/**
 * Attempts one instance runs at once, in sweep batches (SWEEP_BATCH_SIZE): an attempt waiting on a
 * slow receiver costs a socket and a timer, nothing more. One endpoint holds at most one batch's
 * worth: a receiver that never answers, or one with a backlog, leaves the other slots to everyone
 * else's TURN and DEADLINE_SOON, while a lone busy endpoint still gets whole batches.
 */
const SLOTS_IN_BATCHES = 5;

/**
 * Delivers the outbox: due work like a bot's turn. Any instance's sweeper claims due messages
 * (`FOR UPDATE SKIP LOCKED`, with a lease longer than one attempt can take, so no two instances
 * send one message at once), sends each signed, logs the attempt and schedules the next one or
 * settles the message. A crash mid-attempt leaves the message due again when its lease ends:
 * delivery is at least once, and receivers dedupe by `webhook-id`.
 *
 * Up to SLOTS_IN_BATCHES batches of attempts run at once per instance (`concurrency`): a receiver
 * that takes its whole WEBHOOK_TIMEOUT_MS holds slots, not the sweep; and one player's endpoints
 * together hold at most one batch's worth of them. An endpoint failing in earnest is held, then
 * probed one message at a time until one is delivered (HOLD_AFTER_FAILURES).
 */
@Injectable()
export class WebhookDeliveryKind implements DueWorkKind, OnApplicationShutdown {
  readonly name = 'webhook delivery';
  readonly concurrency: number;
  private readonly perOwner: number;
  private readonly logger = new Logger(WebhookDeliveryKind.name);
  private readonly settings: WebhooksConfig;
  private readonly sender: WebhookSender;
  private lastPrune = 0;
  /** What the last claims returned, until each is run (saves a read per message). */
  private readonly claimed = new Map<string, DueMessage>();
  /** Attempts in flight (claimed, not yet recorded) per endpoint owner, for the claim's per-owner cap. */
  private readonly inFlight = new Map<string, number>();
  private readonly log: AttemptLog;

  constructor(
    private readonly repo: WebhookDeliveriesRepository,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(DueWorkSweeper) sweeper: DueWorkSweeper,
  ) {
    this.settings = config.webhooks;
    this.concurrency = config.sweep.batchSize * SLOTS_IN_BATCHES;
    this.perOwner = config.sweep.batchSize;
    this.sender = new WebhookSender({ timeoutMs: this.settings.timeoutMs, allowPrivate: this.settings.allowPrivate });
    // Kept possible (an operator's receivers on a private network; the benchmarks' local one), but
    // never silent: any player may then make this server send requests inside its network.
    if (this.settings.allowPrivate && config.env === 'production')
      this.logger.warn(
        'WEBHOOK_ALLOW_PRIVATE=true in production: any player can point a webhook at http:// and private, loopback or link-local addresses of this network',
      );
    const hold = holdBounds(this.settings.retryScheduleMs);
    this.log = new AttemptLog((entries) => this.repo.recordAttempts(entries, hold));
    sweeper.register(this);
  }

  async claim(limit: number, leaseMs: number): Promise<string[]> {
    await this.pruneNow();
    // The lease outlasts an attempt's timeout: a slow receiver never gets a message twice at once.
    const due = await this.repo.claimDue(limit, Math.max(leaseMs, this.settings.timeoutMs + 2000), this.perOwner, this.inFlight);
    for (const m of due) {
      this.claimed.set(m.id, m);
      this.inFlight.set(m.ownerId, (this.inFlight.get(m.ownerId) ?? 0) + 1);
    }
    return due.map((m) => m.id);
  }

  async run(id: string): Promise<void> {
    // Taken at once: a claim of the same message while this runs (its lease outlived) is its own entry.
    const claimed = this.claimed.get(id);
    this.claimed.delete(id);
    try {
      await this.deliver(claimed ?? (await this.repo.dueMessage(id)));
    } finally {
      if (claimed) this.leave(claimed.ownerId);
    }
  }

  /** A claimed message the sweeper does not run now: what the claim kept of it goes, and its owner's place. */
  release(id: string): void {
    const claimed = this.claimed.get(id);
    if (!claimed) return;
    this.claimed.delete(id);
    this.leave(claimed.ownerId);
  }

  private leave(ownerId: string): void {
    const n = (this.inFlight.get(ownerId) ?? 1) - 1;
    if (n > 0) this.inFlight.set(ownerId, n);
    else this.inFlight.delete(ownerId);
  }

  private async deliver(m: DueMessage | null): Promise<void> {
    if (!m || m.status !== 'PENDING') return;
    if (m.disabledAt) return this.repo.settle(m.id, 'FAILED');
    const at = new Date();
    const headers = signedHeaders(m.msgId, m.body, at, activeSecrets(m, at));
    const outcome = await this.sender.post(m.url, headers, m.body);
    const step = nextStep(outcome, m.attempt + 1, this.settings.retryScheduleMs, m.failingSince ?? at, new Date());
    const attempt = { at, statusCode: outcome.statusCode, error: outcome.error, durationMs: outcome.durationMs };
    const base = { messageId: m.id, webhookId: m.webhookId, claimedUntil: m.claimedUntil, attempt };
    if (step.kind === 'delivered') {
      await this.log.record({ ...base, status: 'DELIVERED', dueInMs: null, succeeded: true, askedMs: 0, disable: null });
      return;
    }
    const failed = { ...base, succeeded: false, askedMs: askedDelay(outcome) };
    if (step.kind === 'retry') {
      await this.log.record({ ...failed, status: 'PENDING', dueInMs: step.delayMs, disable: null });
    } else {
      await this.log.record({ ...failed, status: 'FAILED', dueInMs: null, disable: step.disable });
      if (step.disable) this.logger.warn(`webhook ${m.webhookId} disabled: ${step.disable}`);
    }
  }

  /** After the sweeper has let the attempts in flight finish. */
  onApplicationShutdown(): void {
    this.sender.close();
  }

  /** Retention: messages older than 14 days go, about once a minute, in batches (PRUNE_BUDGET_MS). */
  private async pruneNow(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    const started = (this.lastPrune = Date.now());
    for (;;) {
      const deleted = await this.repo.prune(PRUNE_BATCH);
      if (deleted !== PRUNE_BATCH || Date.now() - started >= PRUNE_BUDGET_MS) return;
    }
  }
}
