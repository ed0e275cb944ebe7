import {
  chainSecretHexFrom,
  countOf,
  DEAL_CHAIN_LENGTH,
  openEnds,
  redactMove,
  teamsFor,
  viewFor,
  type MatchState,
  type MatchView,
  type MoveRecord,
  type RoundResult,
  type RoundState,
  type Rules as DomainRules,
} from '../domain/index.js';
import type { Player } from '../players/models/player.model.js';
import { startingBankMs } from './clock/clock-rules.js';
import type { Clock } from './clock/clock.models.js';
import type { LoadedMatch } from './loaded-match.js';
import type { End, MatchStatus, MoveType, RoundEnd, RoundStatus } from './models/enums.js';
import type { Match, MatchRef, Seat, Team } from './models/match.model.js';
import type { Move, Round, RoundResult as RoundResultModel } from './models/round.model.js';
import type { Rules } from './models/rules.model.js';

/*
 * Builds what one viewer may see of a match. Hidden information is decided by the engine's
 * viewFor and redactMove (own hand only, no boneyard, others' live draws without their tile);
 * this file only reshapes it into the GraphQL models.
 */

export function seatOf(loaded: LoadedMatch, playerId: string | null): number | null {
  if (!playerId) return null;
  return loaded.seats.find((s) => s.playerId === playerId)?.index ?? null;
}

/** @param timedOut the server made this move for a seat whose time ran out */
export function moveModel(m: MoveRecord, timedOut: boolean): Move {
  return {
    seq: m.seq,
    round: m.round,
    seat: m.seat,
    type: m.type as MoveType,
    tile: m.tile ? { high: m.tile.high, low: m.tile.low } : null,
    end: m.end as End | null,
    points: m.points,
    count: m.count,
    timedOut,
  };
}

/** The Move.seq of the moves the server made for timed-out seats (none without a clock). */
function timedOutOf(record: LoadedMatch): ReadonlySet<number> {
  return new Set(record.clockState?.timedOutMoves ?? []);
}

function resultModel(r: RoundResult | null): RoundResultModel | null {
  if (!r) return null;
  return {
    end: r.end as RoundEnd,
    awarded: [...r.awarded],
    hands: r.hands.map((tiles, seat) => ({ seat, tiles: tiles.map((t) => ({ high: t.high, low: t.low })) })),
  };
}

/**
 * hex S_r once round r may be revealed: when it is over, or when the match is (a resignation cuts
 * its last round short). Hashed down from the nearest stored checkpoint above it (fewer than
 * max(16, r) hashes), or from S_N for a match stored without them; never a live round's secret.
 */
function revealer(loaded: LoadedMatch): MatchRef['revealedSecret'] {
  const head = { round: DEAL_CHAIN_LENGTH, secret: loaded.chainSecret };
  const matchOver = loaded.status === 'FINISHED';
  return (round, finished) => (finished || matchOver ? chainSecretHexFrom(head, loaded.dealCheckpoints ?? null, round) : null);
}

/**
 * A round's `dealSecret`, worked out only when a client asks for it: even from a checkpoint it
 * takes a few hashes, which a page of matches asking for `currentRound { number }` need not pay.
 */
type DealSecret = () => string | null;

/** A round that is over: everything may be shown, its draws included. */
export function finishedRoundModel(round: RoundState, rules: DomainRules, dealSecret: DealSecret, timedOut: ReadonlySet<number>): Round {
  return {
    number: round.number,
    status: round.status as RoundStatus,
    starter: round.starter,
    boneyardCount: round.boneyard.length,
    board: {
      openEnds: openEnds(round.board, rules).map((e) => ({ end: e.end as End, pips: e.pips })),
      count: countOf(round.board, rules),
      spinner: round.board.spinner ? { ...round.board.spinner.tile } : null,
    },
    // The round is over: redactMove hides nothing in it, whoever looks.
    moves: round.moves.map((m) => moveModel(redactMove(m, null, true), timedOut.has(m.seq))),
    result: resultModel(round.result),
    get dealSecret() {
      return dealSecret();
    },
    layout: { spinner: rules.spinner, spinnerEndsCount: rules.spinnerEndsCount },
  };
}

/**
 * The round a resignation cut short, once the match is over: UNFINISHED, nothing awarded, and
 * shown in full like a finished round (its hands and draws are no longer anyone's secret).
 */
function cutShortRoundModel(state: MatchState, dealSecret: DealSecret, timedOut: ReadonlySet<number>): Round {
  // Changed in place, not spread: a spread would call the dealSecret getter.
  return Object.assign(finishedRoundModel(state.round, state.config.rules, dealSecret, timedOut), {
    status: 'UNFINISHED' as RoundStatus,
    result: {
      end: 'RESIGNED' as RoundEnd,
      awarded: state.teams.map(() => 0),
      hands: state.round.hands.map((tiles, seat) => ({ seat, tiles: tiles.map((t) => ({ high: t.high, low: t.low })) })),
    },
  });
}

/**
 * The live round as the viewer sees it. What every reader may see of it at once (number, status,
 * leader, boneyard size) comes from the stored state; the board, the moves and the result take the
 * viewer's view (the engine's viewFor: redacted moves, open ends), built on first read, so a
 * command's answer asking `currentRound { number }` computes no view at all.
 */
function liveRoundModel(state: MatchState, view: () => MatchView, dealSecret: DealSecret, timedOut: ReadonlySet<number>): Round {
  const r = state.round;
  const rules = state.config.rules;
  return {
    number: r.number,
    status: r.status as RoundStatus,
    starter: r.starter,
    boneyardCount: r.boneyard.length,
    get board() {
      const v = view().round;
      return {
        openEnds: v.openEnds.map((e) => ({ end: e.end as End, pips: e.pips })),
        count: v.count,
        spinner: v.spinner ? { ...v.spinner } : null,
      };
    },
    get moves() {
      return view().round.moves.map((m) => moveModel(m, timedOut.has(m.seq)));
    },
    get result() {
      return resultModel(view().round.result);
    },
    get dealSecret() {
      return dealSecret();
    },
    layout: { spinner: rules.spinner, spinnerEndsCount: rules.spinnerEndsCount },
  };
}

/** The round a match is in, or the one a resignation cut short once the match is over. */
function currentRoundModel(state: MatchState, view: () => MatchView, dealSecret: DealSecret, timedOut: ReadonlySet<number>): Round {
  const cutShort = state.status === 'FINISHED' && state.round.status === 'IN_PROGRESS';
  return cutShort ? cutShortRoundModel(state, dealSecret, timedOut) : liveRoundModel(state, view, dealSecret, timedOut);
}

/**
 * The match as this viewer may see it. What every list row needs is built at once from the
 * stored state; what takes the engine's per-viewer view (the hand, the legal moves, the round
 * with its redacted moves) is built on first read, once, so a page of matches asked only for
 * `id status` never computes anyone's legal moves.
 */
export function matchModel(loaded: LoadedMatch, viewer: Player | null): Match {
  const mySeat = seatOf(loaded, viewer?.id ?? null);
  const state = loaded.state;
  const live = loaded.status === 'IN_PROGRESS' && state !== null;
  let memo: MatchView | null | undefined;
  let round: Round | null | undefined;
  const view = (): MatchView | null => (memo === undefined ? (memo = state ? viewFor(state, mySeat ?? 'spectator') : null) : memo);
  const teamSeats = state ? state.teams : teamsFor(loaded.seatCount, loaded.partnerships);
  const scores = state ? state.scores : teamSeats.map(() => 0);
  const teams: Team[] = teamSeats.map((seats, index) => ({ index, seats: [...seats], score: scores[index] }));
  const clock = clockView(loaded);
  const seats: Seat[] = loaded.seats.map((s) => ({
    index: s.index,
    player: s.playerId ? { id: s.playerId, name: s.playerName ?? '' } : null,
    team: s.team,
    handCount: state ? state.round.hands[s.index].length : 0,
    isBot: s.isBot,
    clientSeed: s.clientSeed,
    ...clock.seat(s.index),
  }));
  const revealedSecret = revealer(loaded);
  const timedOut = timedOutOf(loaded);
  return {
    id: loaded.id,
    status: loaded.status as MatchStatus,
    version: loaded.version,
    rules: loaded.rules as Rules,
    dealCommitment: loaded.dealCommitment,
    seats,
    teams,
    turn: live && state.status !== 'FINISHED' ? state.round.turn : null,
    mySeat,
    get myHand() {
      const hand = mySeat !== null ? view()?.hand : null;
      return hand ? hand.map((t) => ({ high: t.high, low: t.low })) : mySeat !== null ? [] : null;
    },
    get legalMoves() {
      const v = live ? view() : null;
      return v ? v.legalMoves.map((m) => ({ tile: { high: m.tile.high, low: m.tile.low }, end: m.end as End | null })) : [];
    },
    get canDraw() {
      return live ? (view()?.canDraw ?? false) : false;
    },
    get currentRound() {
      if (round === undefined) {
        round = state
          ? currentRoundModel(
              state,
              () => view()!,
              () => revealedSecret(state.round.number, state.round.status === 'FINISHED'),
              timedOut,
            )
          : null;
      }
      return round;
    },
    winner: loaded.winnerTeam !== null ? (teams[loaded.winnerTeam] ?? null) : null,
    createdAt: loaded.createdAt,
    private: loaded.matchmaking.private,
    inviteCode: mySeat !== null ? loaded.matchmaking.inviteCode : null,
    rematchOfId: loaded.matchmaking.rematchOfId,
    clock: clock.settings,
    deadline: clock.deadline,
    ref: { matchId: loaded.id, viewerSeat: mySeat, revealedSecret, rematchId: loaded.matchmaking.rematchId, timedOut },
  };
}

/** The clock as clients see it: the settings, the deadline, each seat's timeouts and bank. */
function clockView(loaded: LoadedMatch): {
  settings: Clock | null;
  deadline: Date | null;
  seat: (index: number) => Pick<Seat, 'timeouts' | 'clockRef'>;
} {
  const settings = loaded.clock ?? null;
  const state = loaded.clockState ?? null;
  const live = loaded.status === 'IN_PROGRESS' && state?.deadline != null;
  return {
    settings: settings as Clock | null,
    deadline: live ? new Date(state.deadline) : null,
    seat: (index) => ({
      timeouts: state?.timeouts[index] ?? 0,
      clockRef: settings
        ? {
            kind: settings.kind,
            bankMs: state?.bankMs[index] ?? startingBankMs(settings),
            runningSince: live && state.seat === index ? state.since : null,
          }
        : null,
    }),
  };
}
