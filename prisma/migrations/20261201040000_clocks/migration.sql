-- Clocks (README "Clocks"): a match's settings, its running clock, and two indexed due times
-- written by the same statement as every commit: when the seat to move runs out, and the next
-- clock work (DEADLINE_SOON at 80 % of the turn, then the deadline) that every instance sweeps.

-- AlterTable
ALTER TABLE "Match" ADD COLUMN     "clock" JSONB,
ADD COLUMN     "clockState" JSONB,
ADD COLUMN     "deadlineAt" TIMESTAMPTZ(3),
ADD COLUMN     "clockDueAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "MatchEvent" ADD COLUMN     "seat" INTEGER;

-- AlterTable
ALTER TABLE "Move" ADD COLUMN     "timedOut" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "Match_clockDueAt_idx" ON "Match"("clockDueAt");
