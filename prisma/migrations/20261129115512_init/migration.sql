-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "MatchStatus" AS ENUM ('WAITING', 'IN_PROGRESS', 'FINISHED', 'ABANDONED');

-- CreateEnum
CREATE TYPE "RoundStatus" AS ENUM ('IN_PROGRESS', 'FINISHED');

-- CreateEnum
CREATE TYPE "MoveType" AS ENUM ('PLAY', 'DRAW', 'PASS');

-- CreateTable
CREATE TABLE "Player" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Player_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Match" (
    "id" UUID NOT NULL,
    "status" "MatchStatus" NOT NULL DEFAULT 'WAITING',
    "version" INTEGER NOT NULL DEFAULT 0,
    "seatCount" INTEGER NOT NULL,
    "partnerships" BOOLEAN NOT NULL,
    "rules" JSONB NOT NULL,
    "seed" BIGINT NOT NULL,
    "state" JSONB,
    "turn" INTEGER,
    "winnerTeam" INTEGER,
    "lastEventSeq" INTEGER NOT NULL DEFAULT 0,
    "createdById" UUID NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Match_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Seat" (
    "matchId" UUID NOT NULL,
    "index" INTEGER NOT NULL,
    "playerId" UUID,
    "team" INTEGER NOT NULL,
    "isBot" BOOLEAN NOT NULL DEFAULT false,
    "botStrategy" TEXT,

    CONSTRAINT "Seat_pkey" PRIMARY KEY ("matchId","index")
);

-- CreateTable
CREATE TABLE "Team" (
    "matchId" UUID NOT NULL,
    "index" INTEGER NOT NULL,
    "score" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Team_pkey" PRIMARY KEY ("matchId","index")
);

-- CreateTable
CREATE TABLE "Round" (
    "matchId" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "seed" BIGINT NOT NULL,
    "starter" INTEGER NOT NULL,
    "status" "RoundStatus" NOT NULL DEFAULT 'IN_PROGRESS',
    "snapshot" JSONB,
    "result" JSONB,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMP(3),

    CONSTRAINT "Round_pkey" PRIMARY KEY ("matchId","number")
);

-- CreateTable
CREATE TABLE "Move" (
    "matchId" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "round" INTEGER NOT NULL,
    "seat" INTEGER NOT NULL,
    "type" "MoveType" NOT NULL,
    "tileHigh" INTEGER,
    "tileLow" INTEGER,
    "end" TEXT,
    "points" INTEGER NOT NULL DEFAULT 0,
    "count" INTEGER,
    "clientMoveId" TEXT,
    "playerId" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Move_pkey" PRIMARY KEY ("matchId","seq")
);

-- CreateTable
CREATE TABLE "MatchEvent" (
    "matchId" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "moveSeq" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MatchEvent_pkey" PRIMARY KEY ("matchId","seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "Player_tokenHash_key" ON "Player"("tokenHash");

-- CreateIndex
CREATE INDEX "Match_status_createdAt_id_idx" ON "Match"("status", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "Match_createdAt_id_idx" ON "Match"("createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "Seat_playerId_idx" ON "Seat"("playerId");

-- CreateIndex
CREATE UNIQUE INDEX "Seat_matchId_playerId_key" ON "Seat"("matchId", "playerId");

-- CreateIndex
CREATE INDEX "Move_matchId_round_seq_idx" ON "Move"("matchId", "round", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "Move_matchId_playerId_clientMoveId_key" ON "Move"("matchId", "playerId", "clientMoveId");

-- AddForeignKey
ALTER TABLE "Match" ADD CONSTRAINT "Match_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "Player"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Seat" ADD CONSTRAINT "Seat_matchId_fkey" FOREIGN KEY ("matchId") REFERENCES "Match"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Seat" ADD CONSTRAINT "Seat_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Team" ADD CONSTRAINT "Team_matchId_fkey" FOREIGN KEY ("matchId") REFERENCES "Match"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Round" ADD CONSTRAINT "Round_matchId_fkey" FOREIGN KEY ("matchId") REFERENCES "Match"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Move" ADD CONSTRAINT "Move_matchId_fkey" FOREIGN KEY ("matchId") REFERENCES "Match"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MatchEvent" ADD CONSTRAINT "MatchEvent_matchId_fkey" FOREIGN KEY ("matchId") REFERENCES "Match"("id") ON DELETE CASCADE ON UPDATE CASCADE;
