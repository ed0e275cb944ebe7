-- Webhooks (src/webhooks): players' endpoints, the outbox of messages the commits write, and the
-- delivery log of every attempt.

-- CreateTable
CREATE TABLE "Webhook" (
    "id" UUID NOT NULL,
    "playerId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "secret" TEXT NOT NULL,
    "previousSecret" TEXT,
    "rotatedAt" TIMESTAMPTZ(3),
    "disabledAt" TIMESTAMPTZ(3),
    "disabledReason" TEXT,
    "failingSince" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Webhook_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookMessage" (
    "id" UUID NOT NULL,
    "webhookId" UUID NOT NULL,
    "msgId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "dueAt" TIMESTAMPTZ(3),
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "id" UUID NOT NULL,
    "messageId" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "statusCode" INTEGER,
    "error" TEXT,
    "durationMs" INTEGER NOT NULL,

    CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Webhook_playerId_createdAt_idx" ON "Webhook"("playerId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookMessage_dueAt_idx" ON "WebhookMessage"("dueAt");

-- CreateIndex
CREATE INDEX "WebhookMessage_webhookId_createdAt_id_idx" ON "WebhookMessage"("webhookId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "WebhookMessage_createdAt_idx" ON "WebhookMessage"("createdAt");

-- CreateIndex
CREATE INDEX "WebhookAttempt_messageId_at_idx" ON "WebhookAttempt"("messageId", "at");

-- AddForeignKey
ALTER TABLE "Webhook" ADD CONSTRAINT "Webhook_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookMessage" ADD CONSTRAINT "WebhookMessage_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "Webhook"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "WebhookMessage"("id") ON DELETE CASCADE ON UPDATE CASCADE;
