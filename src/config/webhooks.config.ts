import { z } from 'zod';

/**
 * Webhook delivery settings (README "Receiving webhooks"), read with the rest of the
 * configuration (src/config/config.ts).
 */
const flag = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

/** The Standard Webhooks spec's schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_RETRY_SCHEDULE = '5,300,1800,7200,18000,36000,36000';

const MAX_RETRY_DELAY_MS = 30 * 24 * 3600 * 1000;

const schedule = z
  .string()
  .regex(/^\d+(\.\d+)?(,\d+(\.\d+)?){0,49}$/, 'must be comma-separated seconds, e.g. 5,300,1800')
  .transform((v) => v.split(',').map((s) => Math.round(Number(s) * 1000)))
  // A retry is stored as a time: past 30 days it would be out of the database's range, or absurd.
  .refine((delays) => delays.every((ms) => ms <= MAX_RETRY_DELAY_MS), 'each delay must be at most 2592000 seconds (30 days)');

export const webhooksEnvSchema = {
  WEBHOOK_RETRY_SCHEDULE: schedule.prefault(DEFAULT_RETRY_SCHEDULE),
  WEBHOOK_ALLOW_PRIVATE: flag.default(false),
  WEBHOOK_MAX_PER_PLAYER: z.coerce.number().int().min(1).max(1000).default(10),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
};

type WebhooksEnv = z.output<z.ZodObject<typeof webhooksEnvSchema>>;

export interface WebhooksConfig {
  /** delays before the 2nd, 3rd, … attempt, in ms; a message fails after the last */
  retryScheduleMs: number[];
  /** allows http:// and private, loopback and link-local addresses (development, tests) */
  allowPrivate: boolean;
  /** endpoints one player may have */
  maxPerPlayer: number;
  /** one attempt's bound, connect to last byte */
  timeoutMs: number;
}

export function webhooksFrom(env: WebhooksEnv): WebhooksConfig {
  return {
    retryScheduleMs: env.WEBHOOK_RETRY_SCHEDULE,
    allowPrivate: env.WEBHOOK_ALLOW_PRIVATE,
    maxPerPlayer: env.WEBHOOK_MAX_PER_PLAYER,
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
  };
}
