import { apiBotStrategy, storedBotStrategy } from '../matches/bot-strategy.js';
import type { BotStrategy } from '../matches/models/enums.js';
import { pickRules, redactMove, teamsFor, type RoundResult, type Rules, type Tile } from '../domain/index.js';

/**
 * The match-record format, version 2 (docs/match-record.md, docs/match-record.v2.schema.json; what
 * changed since version 1 is listed there): this file builds its body, every field but the
 * fair-deal ones that record-format-v2.ts adds. Built only from public facts: no deal secret, no
 * boneyard, no live hand. Pure, so the format is pinned by a unit spec and the e2e re-verifies it
 * against the rules engine.
 */
export const RECORD_FORMAT = 'straight-dominoes/match-record';
export const RECORD_VERSION = 2;

export interface RecordMove {
  seq: number;
  seat: number;
  type: 'PLAY' | 'DRAW' | 'PASS';
  tile: Tile | null;
  end: 'LEFT' | 'RIGHT' | 'UP' | 'DOWN' | null;
  points: number;
  count: number | null;
}

export interface RecordRound {
  number: number;
  starter: number;
  status: 'FINISHED' | 'UNFINISHED';
  moves: RecordMove[];
  result: { end: RoundResult['end'] | 'RESIGNED'; dominoSeat: number | null; awarded: number[]; hands: { seat: number; tiles: Tile[] }[] } | null;
}

/** A version-2 record without its fair-deal fields (dealCommitment, seats[].clientSeed, rounds[].deal). */
export interface RecordBody {
  format: typeof RECORD_FORMAT;
  version: typeof RECORD_VERSION;
  matchId: string;
  createdAt: string;
  finishedAt: string | null;
  rules: Rules;
  /** R24, present only when set: round 1 was led by this seat, not by lot (a rematch) */
  round1Leader?: number;
  seats: { index: number; team: number; isBot: boolean; botStrategy: BotStrategy | null; player: { id: string; name: string } | null }[];
  teams: { index: number; seats: number[] }[];
  rounds: RecordRound[];
  finalScores: number[];
  winner: number;
  /** RESIGNED: a side forfeited, before the target was reached; `forfeit` says why and which seat */
  ending: 'TARGET_REACHED' | 'RESIGNED';
  /** present when a forfeit ended the match (ending RESIGNED): its player resigned, or its time ran out */
  forfeit?: Forfeit;
}

/** Why a side lost the match at once: the seat's player resigned (RESIGNED) or its clock ran out (TIMED_OUT, with onTimeout FORFEIT or after forfeitAfter timeouts). */
export interface Forfeit {
  cause: 'RESIGNED' | 'TIMED_OUT';
  /** null for a resignation stored before the resigning seat was recorded */
  seat: number | null;
}

/** What the repository reads for an export: stored rows, as plain data. */
export interface RecordSource {
  id: string;
  createdAt: Date;
  finishedAt: Date | null;
  seatCount: number;
  partnerships: boolean;
  rules: Rules;
  winnerTeam: number;
  seats: { index: number; team: number; isBot: boolean; botStrategy: string | null; playerId: string | null; playerName: string | null }[];
  scores: number[];
  rounds: { number: number; starter: number; status: 'IN_PROGRESS' | 'FINISHED'; result: RoundResult | null }[];
  moves: (RecordMove & { round: number })[];
  /** The hands of the round a resignation cut short (the last one), or null. */
  cutShortHands: Tile[][] | null;
  /** R24: the seat that led round 1 as the previous match's winning scorer (a rematch); null: by lot */
  round1Leader?: number | null;
  /** the event before MATCH_FINISHED when it was a forfeit's (RESIGNED, TIMED_OUT), with its seat; else null */
  forfeit?: Forfeit | null;
}

const tile = (t: Tile): Tile => ({ high: t.high, low: t.low });

const hands = (all: readonly (readonly Tile[])[]) => all.map((tiles, seat) => ({ seat, tiles: tiles.map(tile) }));

export function buildRecordBody(src: RecordSource): RecordBody {
  const rules: Rules = pickRules(src.rules);
  const rounds: RecordRound[] = src.rounds.map((r) => {
    const finished = r.status === 'FINISHED' && r.result !== null;
    // A round cut short by a resignation: the match is over, so its hands and draws are shown
    // like a finished round's (since version 2); nothing was awarded for it.
    const cutShort = !finished && src.cutShortHands !== null;
    const moves = src.moves
      .filter((m) => m.round === r.number)
      .map((m) => redactMove(m, null, finished || cutShort))
      .map((m) => ({ seq: m.seq, seat: m.seat, type: m.type, tile: m.tile ? tile(m.tile) : null, end: m.end, points: m.points, count: m.count }));
    return {
      number: r.number,
      starter: r.starter,
      status: finished ? 'FINISHED' : 'UNFINISHED',
      moves,
      result:
        finished && r.result
          ? { end: r.result.end, dominoSeat: r.result.dominoSeat, awarded: [...r.result.awarded], hands: hands(r.result.hands) }
          : cutShort
            ? { end: 'RESIGNED', dominoSeat: null, awarded: src.scores.map(() => 0), hands: hands(src.cutShortHands!) }
            : null,
    };
  });
  const ending = rounds.some((r) => r.status === 'UNFINISHED') ? 'RESIGNED' : 'TARGET_REACHED';
  return {
    format: RECORD_FORMAT,
    version: RECORD_VERSION,
    matchId: src.id,
    createdAt: src.createdAt.toISOString(),
    finishedAt: src.finishedAt?.toISOString() ?? null,
    rules,
    ...(src.round1Leader === null || src.round1Leader === undefined ? {} : { round1Leader: src.round1Leader }),
    seats: src.seats.map((s) => ({
      index: s.index,
      team: s.team,
      isBot: s.isBot,
      // Spelled as GraphQL's BotStrategy (version 1 had the stored lower case).
      botStrategy: s.isBot && s.botStrategy ? apiBotStrategy(storedBotStrategy(s.botStrategy)) : null,
      player: s.playerId ? { id: s.playerId, name: s.playerName ?? '' } : null,
    })),
    teams: teamsFor(src.seatCount, src.partnerships).map((seats, index) => ({ index, seats: [...seats] })),
    rounds,
    finalScores: [...src.scores],
    winner: src.winnerTeam,
    ending,
    ...(ending === 'RESIGNED' && src.forfeit ? { forfeit: { cause: src.forfeit.cause, seat: src.forfeit.seat ?? null } } : {}),
  };
}
