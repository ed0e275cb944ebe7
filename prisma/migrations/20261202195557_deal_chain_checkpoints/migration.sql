-- CreateTable
CREATE TABLE "MatchDealChain" (
    "matchId" UUID NOT NULL,
    "checkpoints" BYTEA NOT NULL,

    CONSTRAINT "MatchDealChain_pkey" PRIMARY KEY ("matchId")
);

-- AddForeignKey
ALTER TABLE "MatchDealChain" ADD CONSTRAINT "MatchDealChain_matchId_fkey" FOREIGN KEY ("matchId") REFERENCES "Match"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill: the checkpoints of every match stored before this table, walked down from its S_N
-- exactly as the server does (S_k = SHA-256(S_(k+1)), docs/fair-deals.md), about a thousand
-- hashes a match. A match that has its row already is left alone, so this block may run again.
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
