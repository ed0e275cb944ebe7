import { Prisma } from '../../generated/prisma/client.js';
import type { MatchState, Rules } from '../domain/index.js';
import type { LoadedMatch } from './loaded-match.js';

/** Mapping stored match rows to LoadedMatch, shared by the repositories that read matches. */

export const matchInclude = {
  seats: { orderBy: { index: 'asc' }, include: { player: { select: { name: true } } } },
  rematch: { select: { id: true } },
} as const;
export type MatchWithSeats = Prisma.MatchGetPayload<{ include: typeof matchInclude }>;

export function toRecord(m: MatchWithSeats): LoadedMatch {
  return {
    id: m.id,
    status: m.status,
    version: m.version,
    seatCount: m.seatCount,
    partnerships: m.partnerships,
    rules: m.rules as unknown as Rules,
    chainSecret: m.chainSecret,
    dealCommitment: m.dealCommitment,
    state: m.state as unknown as MatchState | null,
    lastEventSeq: m.lastEventSeq,
    createdAt: m.createdAt,
    winnerTeam: m.winnerTeam,
    clock: m.clock as unknown as LoadedMatch['clock'],
    clockState: m.clockState as unknown as LoadedMatch['clockState'],
    seats: m.seats.map((s) => ({
      index: s.index,
      playerId: s.playerId,
      playerName: s.player?.name ?? null,
      team: s.team,
      isBot: s.isBot,
      botStrategy: s.botStrategy,
      clientSeed: s.clientSeed,
    })),
    matchmaking: {
      private: m.private,
      inviteCode: m.inviteCode,
      rematchOfId: m.rematchOfId,
      rematchId: m.rematch?.id ?? null,
      rematchLeader: m.rematchLeaderSeat === null ? null : { seat: m.rematchLeaderSeat, playerId: m.rematchLeaderId },
    },
  };
}

/** The LoadedMatch.matchmaking of match `m`, as one column of a raw SELECT (see toRecord). */
export const MATCHMAKING_COLUMN = Prisma.sql`json_build_object(
  'private', m."private", 'inviteCode', m."inviteCode", 'rematchOfId', m."rematchOfId",
  'rematchId', (SELECT r."id" FROM "Match" r WHERE r."rematchOfId" = m."id"),
  'rematchLeader', CASE WHEN m."rematchLeaderSeat" IS NOT NULL THEN json_build_object('seat', m."rematchLeaderSeat", 'playerId', m."rematchLeaderId") END
) AS "matchmaking"`;

/** A unique-key violation, whether Prisma mapped it (P2002) or it came from a raw statement. */
export function isUniqueViolation(e: unknown): boolean {
  if ((e as { code?: unknown }).code === '23505') return true; // straight from node-postgres (hot path)
  if (!(e instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (e.code === 'P2002') return true;
  const meta = e.meta as { code?: string; driverAdapterError?: { cause?: { kind?: string; originalCode?: string } } } | undefined;
  return (
    meta?.code === '23505' ||
    meta?.driverAdapterError?.cause?.kind === 'UniqueConstraintViolation' ||
    meta?.driverAdapterError?.cause?.originalCode === '23505'
  );
}
