-- Provably fair deals (docs/fair-deals.md): every deal comes from a hash chain whose head S_N is
-- stored per match and whose commitment is public, and each seat contributes a public client seed.
-- The 53-bit seeds are gone: nothing deals from them any more.
--
-- Matches stored before this migration were dealt from those seeds and have no chain to reveal or
-- verify, so they cannot continue under the new scheme. No deployment exists yet: they are
-- removed with everything that hangs off them (seats, rounds, moves, events, history rows), and
-- players' running stats are reset with them. Players and their tokens are kept.
TRUNCATE TABLE "Match", "PlayerStats" CASCADE;

-- AlterTable
ALTER TABLE "Match" DROP COLUMN "seed",
ADD COLUMN     "chainSecret" TEXT NOT NULL,
ADD COLUMN     "dealCommitment" TEXT NOT NULL;

-- AlterTable
ALTER TABLE "Round" DROP COLUMN "seed";

-- AlterTable
ALTER TABLE "Seat" ADD COLUMN     "clientSeed" TEXT NOT NULL;
