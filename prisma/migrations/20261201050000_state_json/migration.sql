-- A match's state is rewritten whole by every command and only ever read whole: as json it is
-- stored as the text it is sent as, where jsonb parsed and converted it on every write
-- (bench:moves: a mid-round state of ~7 KB updated 1.8 times as fast as json as as jsonb).

-- AlterTable
ALTER TABLE "Match" ALTER COLUMN "state" SET DATA TYPE JSON USING "state"::json;
