-- CreateTable
CREATE TABLE "PlayerMatch" (
    "playerId" UUID NOT NULL,
    "matchId" UUID NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "status" "MatchStatus" NOT NULL,
    "seat" INTEGER NOT NULL,

    CONSTRAINT "PlayerMatch_pkey" PRIMARY KEY ("playerId","matchId")
);

-- CreateTable
CREATE TABLE "PlayerStats" (
    "playerId" UUID NOT NULL,
    "matchesPlayed" INTEGER NOT NULL DEFAULT 0,
    "matchesWon" INTEGER NOT NULL DEFAULT 0,
    "roundsPlayed" INTEGER NOT NULL DEFAULT 0,
    "pointsScored" INTEGER NOT NULL DEFAULT 0,
    "roundsWonByDomino" INTEGER NOT NULL DEFAULT 0,
    "roundsWonByBlock" INTEGER NOT NULL DEFAULT 0,
    "biggestPlay" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PlayerStats_pkey" PRIMARY KEY ("playerId")
);

-- CreateIndex
CREATE INDEX "PlayerMatch_playerId_createdAt_matchId_idx" ON "PlayerMatch"("playerId", "createdAt" DESC, "matchId" DESC);

-- CreateIndex
CREATE INDEX "PlayerMatch_playerId_status_createdAt_matchId_idx" ON "PlayerMatch"("playerId", "status", "createdAt" DESC, "matchId" DESC);

-- CreateIndex
CREATE INDEX "PlayerMatch_matchId_idx" ON "PlayerMatch"("matchId");

-- CreateIndex
CREATE INDEX "PlayerStats_matchesWon_matchesPlayed_playerId_idx" ON "PlayerStats"("matchesWon" DESC, "matchesPlayed", "playerId");

-- AddForeignKey
ALTER TABLE "PlayerMatch" ADD CONSTRAINT "PlayerMatch_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PlayerMatch" ADD CONSTRAINT "PlayerMatch_matchId_fkey" FOREIGN KEY ("matchId") REFERENCES "Match"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PlayerStats" ADD CONSTRAINT "PlayerStats_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Backfill the history index from the seats already taken (the stats writer keeps it from here on).
INSERT INTO "PlayerMatch" ("playerId", "matchId", "createdAt", "status", "seat")
SELECT s."playerId", s."matchId", m."createdAt", m."status", s."index"
FROM "Seat" s JOIN "Match" m ON m."id" = s."matchId"
WHERE s."playerId" IS NOT NULL;
