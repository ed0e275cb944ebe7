import { randomBytes } from 'node:crypto';
import { defaultSeatSeed, teamsFor, type Rules } from '../domain/index.js';
import type { DealInputs } from './pending-deal-chains.js';
import type { ClockSettings } from './clock/clock-settings.js';
import type { MatchmakingRecord, LoadedMatch } from './loaded-match.js';
import type { NewMatch } from './matches.repository.js';

/**
 * Everything that makes two matches "the same game": what createMatch sets, and what a rematch
 * copies from the finished match. One object, so a new setting is added in one place and every
 * rematch carries it.
 */
export interface MatchSettings {
  seatCount: number;
  partnerships: boolean;
  rules: Rules;
  private: boolean;
  /** the clock (docs/clocks.md); null: none */
  clock: ClockSettings | null;
  /** every seat's team and bot (with its strategy); players are not settings */
  seats: { index: number; team: number; isBot: boolean; botStrategy: string | null }[];
}

/**
 * The seats the server plays: `botSeats` when given (any seats but the creator's seat 0, so two
 * partners can play two bots), else the last `bots` seats. Problems are added to `problems`.
 */
export function botSeatsFor(seats: number, bots: number, botSeats: readonly number[] | null, problems: string[]): number[] {
  if (botSeats === null) {
    if (!Number.isInteger(bots) || bots < 0 || bots > seats - 1) {
      problems.push(`bots must be 0 to ${Math.max(0, seats - 1)} (got ${bots})`);
      return [];
    }
    return Array.from({ length: bots }, (_, i) => seats - bots + i);
  }
  if (botSeats.some((s) => !Number.isInteger(s) || s < 1 || s >= seats)) problems.push(`botSeats must be seats 1 to ${seats - 1} (seat 0 is yours)`);
  if (new Set(botSeats).size !== botSeats.length) problems.push('botSeats must not repeat a seat');
  if (bots !== 0 && bots !== botSeats.length) problems.push(`bots (${bots}) and botSeats (${botSeats.length} seats) disagree: send one of them`);
  return [...botSeats].sort((a, b) => a - b);
}

/** The settings of a createMatch: bots take the seats in `botSeats` (botSeatsFor). */
export function settingsFor(input: {
  seats: number;
  partnerships: boolean;
  botSeats: readonly number[];
  botStrategy: string;
  rules: Rules;
  private: boolean;
  clock: ClockSettings | null;
}): MatchSettings {
  const teamOf = new Map<number, number>();
  teamsFor(input.seats, input.partnerships).forEach((ss, team) => ss.forEach((s) => teamOf.set(s, team)));
  return {
    seatCount: input.seats,
    partnerships: input.partnerships,
    rules: input.rules,
    private: input.private,
    clock: input.clock,
    seats: Array.from({ length: input.seats }, (_, index) => {
      const isBot = input.botSeats.includes(index);
      return { index, team: teamOf.get(index) ?? index, isBot, botStrategy: isBot ? input.botStrategy : null };
    }),
  };
}

/** A rematch's settings: a copy of the finished match's, every one of them. */
export function settingsOf(r: LoadedMatch): MatchSettings {
  return {
    seatCount: r.seatCount,
    partnerships: r.partnerships,
    rules: r.rules,
    private: r.matchmaking.private,
    clock: r.clock ?? null,
    seats: r.seats.map((s) => ({ index: s.index, team: s.team, isBot: s.isBot, botStrategy: s.botStrategy })),
  };
}

/** Crockford's base32: no I, L, O, U, so a code read aloud or retyped is not misread. */
const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** 16 base32 characters, 80 bits from the OS's CSPRNG: unguessable, short enough to paste. */
export function newInviteCode(): string {
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

/**
 * An invite code as a person may type it: case and separators do not matter, and the letters
 * Crockford base32 leaves out read as the digits they look like, as its decoding reads them: O as
 * 0, I and L as 1. No stored code holds those letters: new ones are written in BASE32, and those
 * given to matches stored before it are hexadecimal.
 */
export function normalizeInviteCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

/**
 * A new match of these settings, not yet stored: its rows (the id and deal chain it deals from, an
 * invite code, every seat's default client seed) and the empty record its first command decides on.
 */
export function newMatchFrom(
  settings: MatchSettings,
  createdById: string,
  dealInputs: DealInputs,
  links: Pick<MatchmakingRecord, 'rematchOfId' | 'rematchLeader'> = { rematchOfId: null, rematchLeader: null },
): { match: NewMatch; empty: LoadedMatch } {
  const matchmaking = { private: settings.private, inviteCode: newInviteCode(), ...links };
  const match: NewMatch = {
    id: dealInputs.matchId,
    createdById,
    seatCount: settings.seatCount,
    partnerships: settings.partnerships,
    rules: settings.rules,
    chainSecret: dealInputs.chainSecret,
    dealCheckpoints: dealInputs.dealCheckpoints,
    dealCommitment: dealInputs.dealCommitment,
    pendingOf: dealInputs.pendingOf,
    teams: teamsFor(settings.seatCount, settings.partnerships).length,
    seats: settings.seats.map((s) => ({ ...s, clientSeed: defaultSeatSeed(dealInputs.dealCommitment, s.index) })),
    matchmaking,
    clock: settings.clock,
  };
  const empty: LoadedMatch = {
    id: match.id,
    seatCount: match.seatCount,
    partnerships: match.partnerships,
    rules: match.rules,
    chainSecret: match.chainSecret,
    dealCheckpoints: match.dealCheckpoints,
    dealCommitment: match.dealCommitment,
    status: 'WAITING',
    version: 0,
    state: null,
    lastEventSeq: 0,
    createdAt: new Date(),
    winnerTeam: null,
    seats: match.seats.map((s) => ({ ...s, playerId: null, playerName: null })),
    matchmaking: { ...matchmaking, rematchId: null },
    clock: settings.clock,
    clockState: null,
  };
  return { match, empty };
}

/**
 * The engine plays hands of 1 tile, but this server starts no such match (createMatch, and a
 * rematch of one stored before): the leader goes out on the round's first move, leads the next,
 * and so on, so a table of bots would play a whole match of up to 1,000 rounds on its own, a
 * commit each, for one request (and two accounts could farm rated wins a tile at a time). From 2
 * tiles every seat has a turn before a round can end by a domino. Stored ones still load, replay
 * and export.
 */
export const MIN_HAND_SIZE = 2;

/** What this server refuses to start beyond the engine's own rules (validateSetup). */
export function serverSetupProblems(rules: Rules): string[] {
  if (Number.isInteger(rules.handSize) && rules.handSize < MIN_HAND_SIZE)
    return [`handSize must be at least ${MIN_HAND_SIZE} on this server (got ${rules.handSize})`];
  return [];
}
