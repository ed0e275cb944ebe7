-- Finding opponents and rematches (docs/matchmaking.md): private matches joined by invite code,
-- the public list of open matches, the expiry of WAITING matches nobody joins, and one rematch
-- per finished match.

-- AlterTable
ALTER TABLE "Match" ADD COLUMN     "private" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "inviteCode" TEXT,
ADD COLUMN     "expiresAt" TIMESTAMPTZ(3),
ADD COLUMN     "rematchOfId" UUID,
ADD COLUMN     "rematchLeaderSeat" INTEGER,
ADD COLUMN     "rematchLeaderId" UUID;

-- CreateIndex
CREATE UNIQUE INDEX "Match_inviteCode_key" ON "Match"("inviteCode");

-- CreateIndex
CREATE UNIQUE INDEX "Match_rematchOfId_key" ON "Match"("rematchOfId");

-- CreateIndex
CREATE INDEX "Match_private_status_createdAt_id_idx" ON "Match"("private", "status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Match_expiresAt_idx" ON "Match"("expiresAt");

-- Existing matches get an invite code (20 hex digits from gen_random_uuid, a CSPRNG, while new ones
-- get 16 base32 characters), and those WAITING the default time to live from now.
UPDATE "Match" SET "inviteCode" = upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 20));
UPDATE "Match" SET "expiresAt" = now() + interval '72 hours' WHERE "status" = 'WAITING';

-- AddForeignKey
ALTER TABLE "Match" ADD CONSTRAINT "Match_rematchOfId_fkey" FOREIGN KEY ("rematchOfId") REFERENCES "Match"("id") ON DELETE SET NULL ON UPDATE CASCADE;
