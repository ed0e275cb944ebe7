import { expect } from '@jest/globals';
import { PrismaService } from '../../src/database/prisma.service.js';
import {
  actionsFromMoves,
  apply,
  DEAL_CHAIN_LENGTH,
  newMatch,
  type MatchConfig,
  type MatchState,
  type MoveRecord,
  type Rules,
} from '../../src/domain/index.js';
import type { TestApp } from './app.js';

/** A stored match's deal source and its moves as the engine records them, read back from the database. */
export async function storedMoves(prisma: PrismaService, matchId: string): Promise<{ config: MatchConfig; moves: MoveRecord[] }> {
  const m = await prisma.match.findUniqueOrThrow({ where: { id: matchId }, include: { seats: { orderBy: { index: 'asc' } } } });
  const rows = await prisma.move.findMany({ where: { matchId }, orderBy: { seq: 'asc' } });
  const moves: MoveRecord[] = rows.map((r) => ({
    seq: r.seq,
    round: r.round,
    seat: r.seat,
    type: r.type,
    tile: r.tileHigh === null ? null : { high: r.tileHigh, low: r.tileLow! },
    end: (r.end as MoveRecord['end']) ?? null,
    points: r.points,
    count: r.count,
  }));
  const deal = { matchId, clientSeeds: m.seats.map((s) => s.clientSeed), anchor: { round: DEAL_CHAIN_LENGTH, secret: m.chainSecret } };
  // A rematch's round 1 may have been led by the previous winning scorer (R24): part of the config.
  const round1Leader = (m.state as unknown as MatchState | null)?.config.round1Leader;
  const config = { seats: m.seatCount, partnerships: m.partnerships, rules: m.rules as unknown as Rules, deal };
  return { config: round1Leader === undefined ? config : { ...config, round1Leader }, moves };
}

/**
 * Rebuilds a stored match from its deal source (chain head, id, client seeds) and stored moves alone, with the rules engine, and checks
 * that every finished round's stored snapshot, the live snapshot and the team scores agree.
 */
export async function expectReplayable(app: TestApp | PrismaService, matchId: string): Promise<void> {
  const prisma = 'server' in app ? app.server.app.get(PrismaService) : app;
  const m = await prisma.match.findUniqueOrThrow({
    where: { id: matchId },
    include: { rounds: { orderBy: { number: 'asc' } }, teams: { orderBy: { index: 'asc' } } },
  });
  const { config, moves } = await storedMoves(prisma, matchId);
  expect(moves.map((x) => x.seq)).toEqual(moves.map((_, i) => i + 1)); // no gaps
  let { state } = newMatch(config);
  const finishedRounds = new Map<number, unknown>();
  for (const action of actionsFromMoves(moves)) {
    const res = apply(state, action);
    if (!res.ok) throw new Error(`stored move refused on replay: ${res.violation.code}`);
    for (const e of res.events) if (e.type === 'ROUND_ENDED') finishedRounds.set(e.round, e.finalRound);
    state = res.state;
  }
  const stored = m.state as unknown as MatchState;
  expect(state).toEqual(stored);
  expect(state.lastSeq).toBe(moves.length);
  for (const round of m.rounds.filter((r) => r.status === 'FINISHED')) {
    expect(finishedRounds.get(round.number)).toEqual(round.snapshot);
  }
  expect(m.teams.map((t) => t.score)).toEqual(state.scores);
  expect(m.winnerTeam).toBe(state.winner);
}
