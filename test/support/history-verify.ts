import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  EMPTY_BOARD,
  blockedBonus,
  countOf,
  dominoBonus,
  normalizeTile,
  placeTile,
  playScore,
  type BoardState,
  type End,
  type Rules,
  type Tile,
} from '../../src/domain/index.js';

/** The record as the JSON Schema describes it (only what the checks read). */
export interface RecordT {
  format: string;
  version: number;
  rules: Rules;
  seats: { index: number; team: number; isBot: boolean; player: { id: string; name: string } | null }[];
  teams: { index: number; seats: number[] }[];
  rounds: {
    number: number;
    status: 'FINISHED' | 'UNFINISHED';
    moves: { seq: number; seat: number; type: string; tile: Tile | null; end: End | null; points: number; count: number | null }[];
    result: { end: string; dominoSeat: number | null; awarded: number[]; hands: { seat: number; tiles: Tile[] }[] } | null;
  }[];
  finalScores: number[];
  winner: number;
}

/** A validator for docs/match-record.v2.schema.json (the version the server exports) (formats checked by small local rules). */
export function recordValidator(): (data: unknown) => { ok: boolean; errors: unknown } {
  const schema = JSON.parse(readFileSync(new URL('../../docs/match-record.v2.schema.json', import.meta.url), 'utf8')) as object;
  const ajv = new Ajv2020({
    allErrors: true,
    formats: {
      uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
      'date-time': (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s) && !Number.isNaN(Date.parse(s)),
    },
  });
  const validate = ajv.compile(schema);
  return (data) => ({ ok: validate(data), errors: validate.errors });
}

/**
 * Re-computes every score of a record from the record alone with the rules engine: each PLAY is
 * placed on a board rebuilt from the round's earlier plays, its C and its points recomputed; each
 * round's bonus is recomputed from the revealed hands. Returns the problems found (none = valid)
 * and the recomputed totals.
 */
export function reverify(rec: RecordT): { problems: string[]; totals: number[] } {
  const problems: string[] = [];
  const { rules } = rec;
  const teamOfSeat = rec.seats.map((s) => s.team);
  const teams = rec.teams.map((t) => t.seats);
  const totals = teams.map(() => 0);
  let expectedSeq = 1;
  for (const round of rec.rounds) {
    let board: BoardState = EMPTY_BOARD;
    for (const m of round.moves) {
      if (m.seq !== expectedSeq++) problems.push(`round ${round.number}: seq ${m.seq} out of order`);
      if (m.type !== 'PLAY') {
        if (m.points !== 0) problems.push(`seq ${m.seq}: a ${m.type} scored`);
        continue;
      }
      board = placeTile(board, normalizeTile(m.tile!), m.end, rules.spinner);
      const count = countOf(board, rules);
      const points = playScore(count, rules.scoring);
      if (count !== m.count) problems.push(`seq ${m.seq}: count ${m.count}, recomputed ${count}`);
      if (points !== m.points) problems.push(`seq ${m.seq}: points ${m.points}, recomputed ${points}`);
      totals[teamOfSeat[m.seat]] += points;
    }
    const r = round.result;
    if (round.status === 'UNFINISHED' || !r) continue;
    const hands = r.hands.map((h) => h.tiles);
    const awarded =
      r.end === 'DOMINO'
        ? dominoBonus(hands, teamOfSeat, teams.length, r.dominoSeat!, rules.dominoRounding)
        : r.end === 'BLOCKED'
          ? blockedBonus(hands, teams, rules.blockedBonus)
          : teams.map(() => 0);
    if (JSON.stringify(awarded) !== JSON.stringify(r.awarded))
      problems.push(`round ${round.number}: awarded ${JSON.stringify(r.awarded)}, recomputed ${JSON.stringify(awarded)}`);
    if (r.end === 'DOMINO' && hands[r.dominoSeat!].length !== 0) problems.push(`round ${round.number}: the domino seat still holds tiles`);
    awarded.forEach((a, t) => (totals[t] += a));
  }
  if (JSON.stringify(totals) !== JSON.stringify(rec.finalScores))
    problems.push(`final scores ${JSON.stringify(rec.finalScores)}, recomputed ${JSON.stringify(totals)}`);
  const best = Math.max(...totals);
  if (rec.finalScores[rec.winner] !== best && rec.rounds.every((r) => r.status === 'FINISHED'))
    problems.push(`winner ${rec.winner} does not hold the best score`);
  return { problems, totals };
}
