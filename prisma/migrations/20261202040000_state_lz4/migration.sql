-- A match's state (2–5 KB of json mid-match) passes the 2 KB at which PostgreSQL compresses a
-- value, and every command rewrites it: with the default pglz, compressing it was the largest
-- single item of PostgreSQL's CPU per move (a system-wide profile of bench:moves). lz4 compresses
-- several times as fast. It needs a server built with lz4 (PostgreSQL 14 or later as most
-- distributions ship it): on one without, the column keeps pglz and the migration still applies.
-- Values already stored keep their compression until rewritten, as every command does.
--
-- The migration engine splits a script at every semicolon, dollar quotes or not: the block's own
-- semicolons are written as \073 in an escaped string.
DO E'BEGIN ALTER TABLE "Match" ALTER COLUMN "state" SET COMPRESSION lz4\073 EXCEPTION WHEN feature_not_supported THEN RAISE NOTICE ''no lz4 here: "Match"."state" stays compressed with pglz''\073 END';
