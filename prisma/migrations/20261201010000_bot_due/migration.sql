-- AlterTable
ALTER TABLE "Match" ADD COLUMN "botDueAt" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "Match_botDueAt_idx" ON "Match"("botDueAt");

-- A match already waiting on a bot (stranded before this column existed) is due now.
UPDATE "Match" m SET "botDueAt" = now()
FROM "Seat" s
WHERE m."status" = 'IN_PROGRESS' AND s."matchId" = m."id" AND s."index" = m."turn" AND s."isBot";
