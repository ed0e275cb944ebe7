-- A failing endpoint is probed, not flooded (docs/webhooks.md): its failure streak, and how long
-- it is held.
ALTER TABLE "Webhook" ADD COLUMN "failureStreak" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "heldUntil" TIMESTAMPTZ(3);

-- The claim asks whether a held endpoint has an attempt in flight: its claimed messages, a handful
-- at any time (claimedUntil is cleared when an attempt is recorded), where the endpoint's messages
-- scheduled ahead may be thousands. Partial, hand-written: the Prisma schema cannot declare it.
CREATE INDEX "WebhookMessage_claimed_webhookId_idx" ON "WebhookMessage" ("webhookId") WHERE "claimedUntil" IS NOT NULL;
