-- CreateTable
CREATE TABLE "PendingDealChain" (
    "playerId" UUID NOT NULL,
    "matchId" UUID NOT NULL,
    "chainSecret" TEXT NOT NULL,
    "dealCommitment" TEXT NOT NULL,
    "checkpoints" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PendingDealChain_pkey" PRIMARY KEY ("playerId")
);

-- AddForeignKey
ALTER TABLE "PendingDealChain" ADD CONSTRAINT "PendingDealChain_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;
