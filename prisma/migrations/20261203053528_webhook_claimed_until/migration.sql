-- While an attempt of a message is in flight, its claim's lease end: a redelivery then changes
-- nothing, so no message is ever sent twice at once (docs/webhooks.md).
-- AlterTable
ALTER TABLE "WebhookMessage" ADD COLUMN     "claimedUntil" TIMESTAMPTZ(3);
