/**
 * Checks a version-2 match record from the record alone (docs/fair-deals.md, docs/match-record.md):
 * the hash chain against the commitment, every round's deck against its secret and the client
 * seeds, then the whole match replayed through the rules engine — every move's legality, tile,
 * points and count, every starter, result and bonus, the final scores and the winner.
 * Pure: `npm run verify-record` and the e2e tests call it.
 */
import {
  apply,
  deckFromSecret,
  defaultSeatSeed,
  hashTimes,
  isClientSeed,
  newMatch,
  resolveRules,
  type DomainEvent,
  type MatchConfig,
  type MatchState,
  type MoveRecord,
  type Tile,
} from '../domain/index.js';
import { forfeitWinner } from '../matches/forfeit.js';
import { BotStrategy } from '../matches/models/enums.js';
import { RECORD_FORMAT, RECORD_VERSION, type Forfeit } from './record-format.js';
import type { MatchRecordV2 } from './record-format-v2.js';

const HEX64 = /^[0-9a-f]{64}$/;
const tileText = (t: Tile | null | undefined) => (t ? `${t.high}-${t.low}` : 'none');
const sameTile = (a: Tile | null | undefined, b: Tile | null | undefined) =>
  (a ?? null) === (b ?? null) || (!!a && !!b && a.high === b.high && a.low === b.low);
const json = (v: unknown) => JSON.stringify(v);

export interface Verdict {
  ok: boolean;
  problems: string[];
  /** What holds but deserves a look: a bot seat whose seed is not its default seed (checkDefaultSeeds). */
  notes: string[];
  rounds: number;
  moves: number;
}

export function verifyRecord(input: unknown): Verdict {
  try {
    return check(input as MatchRecordV2);
  } catch (e) {
    // A record missing a field the checks read: say so instead of failing with a TypeError.
    const rec = input as MatchRecordV2 | undefined;
    return { ok: false, problems: [`malformed record: ${(e as Error).message}`], notes: [], rounds: 0, moves: countMoves(rec) };
  }
}

function check(rec: MatchRecordV2): Verdict {
  const problems: string[] = [];
  const notes: string[] = [];
  const done = (): Verdict => ({ ok: problems.length === 0, problems, notes, rounds: rec?.rounds?.length ?? 0, moves: countMoves(rec) });
  if (!rec || rec.format !== RECORD_FORMAT || rec.version !== RECORD_VERSION) {
    problems.push(`not a version-${RECORD_VERSION} ${RECORD_FORMAT} (format ${json(rec?.format)}, version ${json(rec?.version)})`);
    return done();
  }
  if (!Array.isArray(rec.rounds) || rec.rounds.length === 0) problems.push('no rounds');
  if (!HEX64.test(String(rec.dealCommitment))) problems.push('dealCommitment is not 64 lowercase hex digits');
  const seeds = rec.seats.map((s) => s.clientSeed);
  seeds.forEach((s, i) => isClientSeed(s) || problems.push(`seat ${i}: client seed ${json(s)} is not 1–64 printable ASCII characters without "|"`));
  // Version 2 spells a bot's strategy as GraphQL's BotStrategy (version 1 had it in lower case).
  rec.seats.forEach((s, i) => {
    const want: (string | null)[] = s.isBot ? Object.values(BotStrategy) : [null];
    if (!want.includes(s.botStrategy))
      problems.push(`seat ${i}: botStrategy ${json(s.botStrategy)}, expected ${want.map((w) => json(w)).join(' or ')}`);
  });
  if (problems.length > 0) return done();
  notes.push(...checkDefaultSeeds(rec));

  // 1. The chain and the decks.
  rec.rounds.forEach((round, i) => {
    if (round.number !== i + 1) problems.push(`round ${i + 1} is numbered ${round.number}`);
    const secret = round.deal?.secret;
    if (!HEX64.test(String(secret))) return problems.push(`round ${round.number}: deal.secret is not 64 lowercase hex digits`);
    if (hashTimes(secret, round.number) !== rec.dealCommitment) {
      return problems.push(`round ${round.number}: SHA-256 applied ${round.number} times to its secret is not the commitment`);
    }
    const deck = deckFromSecret(secret, rec.matchId, round.number, seeds);
    const at = deck.findIndex((t, k) => !sameTile(t, round.deal.deck?.[k]));
    if (at >= 0 || round.deal.deck?.length !== deck.length) {
      problems.push(
        `round ${round.number}: the deck differs from the one its secret and the client seeds deal (first at position ${at}: ${tileText(round.deal.deck?.[at])}, dealt ${tileText(deck[at])})`,
      );
    }
  });
  if (problems.length > 0) return done();

  // 2. The match, replayed.
  replay(rec, seeds, problems);
  return done();
}

function countMoves(rec: MatchRecordV2 | undefined): number {
  return Array.isArray(rec?.rounds) ? rec.rounds.reduce((n, r) => n + (r?.moves?.length ?? 0), 0) : 0;
}

function replay(rec: MatchRecordV2, seeds: string[], problems: string[]): void {
  const last = rec.rounds[rec.rounds.length - 1];
  const seats = rec.seats.length;
  const config: MatchConfig = {
    seats,
    partnerships: seats === 4 && rec.teams.length === 2,
    rules: resolveRules(rec.rules),
    // The verifier's anchor: the last revealed secret, from which every earlier one derives.
    deal: { matchId: rec.matchId, clientSeeds: seeds, anchor: { round: last.number, secret: last.deal.secret } },
    // R24: a rematch's round 1 led by the previous winning scorer (newMatch checks it is a seat).
    ...(rec.round1Leader === undefined ? {} : { round1Leader: rec.round1Leader }),
  };
  let state: MatchState;
  const starters = new Map<number, number>();
  const results = new Map<number, Extract<DomainEvent, { type: 'ROUND_ENDED' }>['result']>();
  try {
    const start = newMatch(config);
    state = start.state;
    starters.set(1, state.round.starter);
  } catch (e) {
    problems.push(`the match cannot be set up: ${(e as Error).message}`);
    return;
  }
  checkTeams(rec, state.teamOfSeat, problems);
  const produced: MoveRecord[] = [];
  const take = (events: readonly DomainEvent[]) => {
    for (const e of events) {
      if (e.type === 'TILE_PLAYED' || e.type === 'TILE_DRAWN' || e.type === 'TURN_PASSED') produced.push(e.move);
      else if (e.type === 'ROUND_STARTED') starters.set(e.round, e.starter);
      else if (e.type === 'ROUND_ENDED') results.set(e.round, e.result);
    }
  };
  for (const round of rec.rounds) {
    for (const m of round.moves) {
      const where = `round ${round.number}, seq ${m.seq}`;
      if (m.type !== 'PASS') {
        if (produced.length > 0) return void problems.push(`${where}: the engine passed seat ${produced[0].seat} here, the record has a ${m.type}`);
        const action =
          m.type === 'PLAY' ? { type: 'PLAY' as const, seat: m.seat, tile: m.tile!, end: m.end } : { type: 'DRAW' as const, seat: m.seat };
        if (m.type === 'PLAY' && !m.tile) return void problems.push(`${where}: a PLAY without a tile`);
        let res: ReturnType<typeof apply>;
        try {
          res = apply(state, action);
        } catch (e) {
          return void problems.push(`${where}: the match continues past its last recorded round (${(e as Error).message})`);
        }
        if (!res.ok)
          return void problems.push(
            `${where}: ${m.type} ${tileText(m.tile)} by seat ${m.seat} is illegal: ${res.violation.code} (${res.violation.message})`,
          );
        state = res.state;
        take(res.events);
      }
      const e = produced.shift();
      if (!e) return void problems.push(`${where}: the engine made no move here (the record has a ${m.type})`);
      const mismatch = moveMismatch(e, m, round.number);
      if (mismatch) return void problems.push(`${where}: ${mismatch}`);
    }
    const starter = starters.get(round.number);
    if (starter !== round.starter) problems.push(`round ${round.number}: starter ${round.starter}, the deal and the rules give ${json(starter)}`);
    if (round.status === 'FINISHED') {
      const r = results.get(round.number);
      if (!r) return void problems.push(`round ${round.number}: recorded as FINISHED, but it is not over after its moves`);
      const want = {
        end: r.end,
        dominoSeat: r.dominoSeat,
        awarded: [...r.awarded],
        hands: r.hands.map((tiles, seat) => ({ seat, tiles: tiles.map((t) => ({ high: t.high, low: t.low })) })),
      };
      if (json(want) !== json(round.result)) problems.push(`round ${round.number}: result ${json(round.result)}, recomputed ${json(want)}`);
    } else if (results.has(round.number)) problems.push(`round ${round.number}: recorded UNFINISHED, but its moves end it`);
    else {
      // Cut short by a resignation: nothing awarded, and the hands as the moves left them.
      const want = {
        end: 'RESIGNED',
        dominoSeat: null,
        awarded: state.scores.map(() => 0),
        hands: state.round.hands.map((tiles, seat) => ({ seat, tiles: tiles.map((t) => ({ high: t.high, low: t.low })) })),
      };
      if (json(want) !== json(round.result))
        problems.push(`round ${round.number}: UNFINISHED with result ${json(round.result)}, recomputed ${json(want)}`);
    }
  }
  if (produced.length > 0) problems.push(`the engine passed seat ${produced[0].seat} after the last recorded move`);
  if (json(state.scores) !== json(rec.finalScores)) problems.push(`final scores ${json(rec.finalScores)}, recomputed ${json(state.scores)}`);
  if (rec.ending === 'RESIGNED') {
    if (state.status !== 'IN_PROGRESS') problems.push('ending RESIGNED, but the moves finish the match');
    else if (rec.forfeit !== undefined) checkForfeit(rec.forfeit, rec.winner, state, problems);
  } else if (rec.forfeit !== undefined) problems.push(`a forfeit ${json(rec.forfeit)}, but the match ended ${rec.ending}`);
  else if (state.status !== 'FINISHED') problems.push(`ending ${rec.ending}, but the match is not over after its moves`);
  else {
    if (state.winner !== rec.winner) problems.push(`winner ${rec.winner}, recomputed ${json(state.winner)}`);
    const want = targetReached(state.scores, config.rules.targetScore) ? 'TARGET_REACHED' : 'DEALS_EXHAUSTED';
    if (rec.ending !== want) problems.push(`ending ${json(rec.ending)}, but the moves end the match ${want}`);
  }
}

/** One side alone at the top, at the target or past it; otherwise the chain's last round ended the match. */
function targetReached(scores: readonly number[], target: number): boolean {
  const top = Math.max(...scores);
  return top >= target && scores.filter((s) => s === top).length === 1;
}

/**
 * Who sits on which side is fixed by the seat count and partnerships (R2: seats 0 and 2 against
 * 1 and 3, else a side per seat): a record that moves a seat to another side would credit the
 * win to other players.
 */
function checkTeams(rec: MatchRecordV2, teamOfSeat: readonly number[], problems: string[]): void {
  const want = [...new Set(teamOfSeat)].map((index) => ({ index, seats: teamOfSeat.flatMap((t, seat) => (t === index ? [seat] : [])) }));
  const teams = rec.teams.map((t) => ({ index: t.index, seats: t.seats })); // in the order of `want`'s keys
  if (json(teams) !== json(want)) problems.push(`teams ${json(teams)}, but the seats make ${json(want)}`);
  rec.seats.forEach((s, i) => {
    if (s.index !== i || s.team !== teamOfSeat[i])
      problems.push(`seat ${i}: index ${json(s.index)} and team ${json(s.team)}, expected ${i} and ${teamOfSeat[i]}`);
  });
}

/** A forfeit names a cause and a seat (null: not recorded), and the winner is the best-placed other side. */
function checkForfeit(forfeit: Forfeit, winner: number, state: MatchState, problems: string[]): void {
  if (forfeit.cause !== 'RESIGNED' && forfeit.cause !== 'TIMED_OUT')
    problems.push(`forfeit cause ${json(forfeit.cause)}, expected RESIGNED or TIMED_OUT`);
  if (forfeit.seat === null) return;
  if (!Number.isInteger(forfeit.seat) || state.teamOfSeat[forfeit.seat] === undefined)
    return void problems.push(`forfeit seat ${json(forfeit.seat)} is not a seat of the match`);
  const want = forfeitWinner(state.scores, state.teamOfSeat[forfeit.seat]);
  if (want !== winner) problems.push(`winner ${winner}, but seat ${forfeit.seat}'s side forfeited: the best-placed other side is ${want}`);
}

/** Why a recorded move differs from the engine's (null when it does not). Version 2 shows every draw's tile. */
function moveMismatch(e: MoveRecord, m: MatchRecordV2['rounds'][number]['moves'][number], round: number): string | null {
  if (e.round !== round) return `the engine is in round ${e.round}`;
  if (e.seq !== m.seq || e.seat !== m.seat || e.type !== m.type)
    return `recorded ${m.type} by seat ${m.seat} (seq ${m.seq}), the engine made ${e.type} by seat ${e.seat} (seq ${e.seq})`;
  if (!sameTile(e.tile, m.tile)) return `tile ${tileText(m.tile)}, the engine's ${tileText(e.tile)}`;
  if ((e.end ?? null) !== (m.end ?? null)) return `end ${json(m.end)}, the engine's ${json(e.end)}`;
  if (e.points !== m.points) return `points ${m.points}, recomputed ${e.points}`;
  if ((e.count ?? null) !== (m.count ?? null)) return `count ${json(m.count)}, recomputed ${json(e.count)}`;
  return null;
}

/**
 * A bot's seed is its seat's default seed, which follows from the commitment (docs/fair-deals.md):
 * one that is not was chosen by whoever ran the server. Matches stored before default seeds (3
 * December 2026) have random seeds on bot seats, so this is a note, not a failure.
 */
function checkDefaultSeeds(rec: MatchRecordV2): string[] {
  return rec.seats
    .filter((s) => s.isBot && s.clientSeed !== defaultSeatSeed(rec.dealCommitment, s.index))
    .map(
      (s) =>
        `seat ${s.index} (a bot): its client seed is not the seat's default seed: a match stored before default seeds, or a seed the server chose`,
    );
}
