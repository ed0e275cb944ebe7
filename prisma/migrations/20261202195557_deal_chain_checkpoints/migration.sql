-- CreateTable
CREATE TABLE "MatchDealChain" (
    "matchId" UUID NOT NULL,
    "checkpoints" BYTEA NOT NULL,

    CONSTRAINT "MatchDealChain_pkey" PRIMARY KEY ("matchId")
);

-- Backfill: the checkpoints of every match stored before this table, walked down from its S_N
-- exactly as the server does (S_k = SHA-256(S_(k+1)), docs/fair-deals.md), about a thousand
-- hashes a match. A match that has its row already is left alone, so this block may run again.
-- It runs before the foreign key exists: with it, every row inserted would hold a key-share lock
-- on its match until the block commits, and instances still running (a rolling deploy) would
-- skip those matches in their sweeps (FOR UPDATE SKIP LOCKED) for that long. Matches that older
-- instances create meanwhile get no row: their secrets are walked from S_N, as before.
-- The migration engine splits a script at every semicolon, dollar quotes or not: the block's own
-- semicolons are written as \073 in an escaped string.
DO E'DECLARE m record\073 s bytea\073 cps bytea\073 r int\073
BEGIN
  FOR m IN SELECT x."id", x."chainSecret" FROM "Match" x
            WHERE NOT EXISTS (SELECT 1 FROM "MatchDealChain" c WHERE c."matchId" = x."id") LOOP
    s := decode(m."chainSecret", ''hex'')\073
    cps := ''''::bytea\073
    r := 1000\073
    WHILE r > 16 LOOP
      s := sha256(s)\073
      r := r - 1\073
      IF r IN (16, 32, 64, 128, 256, 512) THEN cps := s || cps\073 END IF\073
    END LOOP\073
    INSERT INTO "MatchDealChain" ("matchId", "checkpoints") VALUES (m."id", cps)\073
  END LOOP\073
END';

-- AddForeignKey: declared without a scan (a moment's lock on "Match"), then validated with
-- locks that let commands write matches meanwhile. Matches are never deleted, so none is missing.
ALTER TABLE "MatchDealChain" ADD CONSTRAINT "MatchDealChain_matchId_fkey" FOREIGN KEY ("matchId") REFERENCES "Match"("id") ON DELETE CASCADE ON UPDATE CASCADE NOT VALID;
ALTER TABLE "MatchDealChain" VALIDATE CONSTRAINT "MatchDealChain_matchId_fkey";
