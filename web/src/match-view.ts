import { buildBoard, endCounts } from '../../src/domain/board.js';
import type { End, Match, Move, RoundResult, Tile } from './types.js';

/**
 * Words for what the page shows; pure, so every view words things the same way. Seats are 0-based
 * in the API and counted from 1 for people ("Bot 2" sits in seat 1), as the board picture
 * (GET /matches/:id/board.svg) names them too.
 */
/** What naming a seat needs: a full Match, or a list's item. */
type SeatsOf = { seats: readonly { isBot: boolean; player: { name: string } | null }[]; mySeat: number | null };

export function seatName(m: SeatsOf, seat: number): string {
  const s = m.seats[seat];
  const name = s?.player?.name ?? (s?.isBot ? `Bot ${seat + 1}` : `Seat ${seat + 1}`);
  return seat === m.mySeat ? `${name} (you)` : name;
}

export const tileText = (t: Tile): string => `${t.high}-${t.low}`;
export const sameTile = (a: Tile, b: Tile): boolean => (a.high === b.high && a.low === b.low) || (a.high === b.low && a.low === b.high);

/** What a move's sentence needs. */
export type MoveWords = Pick<Move, 'seat' | 'type' | 'tile' | 'end' | 'points'> & { timedOut?: boolean };

export function moveText(m: Pick<Match, 'seats' | 'mySeat'>, move: MoveWords): string {
  const who = seatName(m, move.seat);
  // A move the server made for a seat whose time ran out is not the player's own choice.
  const forced = move.timedOut ? ` (out of time: the server moved for ${move.seat === m.mySeat ? 'you' : 'them'})` : '';
  if (move.type === 'PASS') return `${who} passed${forced}`;
  if (move.type === 'DRAW') return `${who} drew${move.tile ? ` ${tileText(move.tile)}` : ' a tile'}${forced}`;
  const where = move.end ? ` on ${move.end.toLowerCase()}` : ' (lead)';
  return `${who} played ${move.tile ? tileText(move.tile) : '?'}${where}${move.points ? `, scoring ${move.points}` : ''}${forced}`;
}

export function statusText(m: Match): string {
  if (m.status === 'WAITING') return `Waiting for players: ${m.seats.filter((s) => s.player || s.isBot).length} of ${m.seats.length} seats taken`;
  if (m.status === 'ABANDONED') {
    // A match ends ABANDONED before its start in two ways: its last player left (no player is
    // seated then), or nobody joined in time (MATCH_EXPIRED), which leaves its players seated.
    return m.seats.some((s) => s.player)
      ? 'Abandoned: nobody joined in time, so the match expired before the start'
      : 'Abandoned: every player left before the start';
  }
  if (m.status === 'FINISHED') return `Finished: ${m.winner ? sideName(m, m.winner.seats) : 'nobody'} won${forfeitText(m)}`;
  if (m.turn === null) return 'In progress';
  return m.turn === m.mySeat ? 'Your turn' : `To move: ${seatName(m, m.turn)}`;
}

/** Why the losing side lost, when it did not simply fall behind: " (Ada resigned)", " (Ada ran out of time)". */
function forfeitText(m: Pick<Match, 'seats' | 'mySeat' | 'ending'>): string {
  const e = m.ending;
  if (!e || e.seat === null) return '';
  const who = e.seat === m.mySeat ? 'you' : seatName(m, e.seat);
  return e.cause === 'RESIGNED' ? ` (${who} resigned)` : e.cause === 'TIMED_OUT' ? ` (${who} ran out of time)` : '';
}

/** A time left in words ("2 d 3 h", "1 h 5 min", "4 min", "40 s"): rounded up, so it never says 0 too early. */
export function durationText(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.ceil(s / 60)} min`;
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  return d > 0 ? `${d} d ${h} h` : `${h} h ${Math.floor((s % 3600) / 60)} min`;
}

/**
 * The turn's clock, for a match with one: who must move by when, and what happens then. Null
 * without a deadline (no clock, a bot to move, or the match not in play).
 */
export function deadlineText(m: Pick<Match, 'seats' | 'mySeat' | 'turn' | 'deadline' | 'clock'>, now: number): string | null {
  if (!m.deadline || m.turn === null || !m.clock) return null;
  const at = Date.parse(m.deadline);
  const until = new Date(at).toLocaleString(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' });
  const left = at > now ? `${durationText(at - now)} left (until ${until})` : 'time is up';
  const mine = m.turn === m.mySeat;
  // With BOT_PLAYS, the timeouts in a row so far against the limit: the one that reaches it loses.
  const n = m.seats[m.turn]?.timeouts ?? 0;
  const limit = m.clock.onTimeout === 'BOT_PLAYS' ? m.clock.forfeitAfter : 0;
  const loses = m.clock.onTimeout === 'FORFEIT' || (limit > 0 && n + 1 >= limit);
  const then = loses ? `${mine ? 'your' : 'their'} side loses the match` : `a bot moves for ${mine ? 'you' : 'them'}`;
  const count = limit > 0 && n > 0 ? ` (timeouts in a row: ${n} of the ${limit} that lose it)` : '';
  const who = mine ? 'Your time to move' : `${seatName(m, m.turn)}'s time to move`;
  return `${who}: ${left}. When it runs out, ${then}${count}.`;
}

/** Below this, any clock's time is short. */
const NEAR_MS = 10_000;

/**
 * Whether the seat to move is short of time, so the line stands out: in the last fifth of the
 * clock's time (a PER_MOVE turn's, or the bank a BANK clock starts with), or its last 10 s.
 */
export function deadlineNear(m: Pick<Match, 'deadline' | 'clock'>, now: number): boolean {
  if (!m.deadline || !m.clock) return false;
  const whole = (m.clock.kind === 'PER_MOVE' ? m.clock.moveSeconds : m.clock.bankSeconds) ?? 0;
  return Date.parse(m.deadline) - now <= Math.max(NEAR_MS, whole * 1000 * 0.2);
}

/**
 * A seat's time bank (BANK clocks), in words: the seat to move's runs down to its deadline, the
 * others' stand as the match was read. Null for other clocks.
 */
export function bankText(m: Pick<Match, 'seats' | 'turn' | 'deadline' | 'clock'>, seat: number, now: number): string | null {
  if (m.clock?.kind !== 'BANK') return null;
  const running = seat === m.turn && m.deadline ? Date.parse(m.deadline) - now : null;
  const left = running ?? (m.seats[seat]?.timeLeftSeconds ?? 0) * 1000;
  return durationText(left);
}

export function sideName(m: SeatsOf, seats: number[]): string {
  return seats.map((s) => seatName(m, s)).join(' & ');
}

/** The ends a hand tile may go to (null: the round's lead). */
export function endsFor(m: Match, tile: Tile): (End | null)[] {
  return m.legalMoves.filter((l) => sameTile(l.tile, tile)).map((l) => l.end);
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The board as text, for anyone who cannot see the picture: open ends, count and boneyard. */
export function boardSummary(m: Pick<Match, 'currentRound' | 'status' | 'rules'>): string {
  const r = m.currentRound;
  if (!r) return m.status === 'WAITING' ? 'No layout yet: the match has not started.' : 'No layout.';
  const b = r.board;
  const ends = b.openEnds.length
    ? `Open ends: ${endWords(m.rules, r.moves, b.openEnds).join(', ')}${b.spinner ? ` (spinner ${tileText(b.spinner)})` : ''}.`
    : 'No tile played yet.';
  // Under the reserve variant the last tiles of the boneyard are never drawn: say how many can be.
  const reserve = Number(m.rules.reserve ?? 0);
  const drawable = reserve > 0 ? `, ${Math.max(0, r.boneyardCount - reserve)} of them can be drawn (${reserve} are never drawn)` : '';
  return `Round ${r.number}. ${ends} Count ${b.count}. Boneyard: ${plural(r.boneyardCount, 'tile')}${drawable}.`;
}

/**
 * Each open end with its pips, and what it adds to the count where that is not just its pips (a
 * double counts both halves; the spinner's own ends count nothing): the count, said in words,
 * adds up for a reader who cannot see the picture. From the round's plays, as the picture is.
 */
function endWords(rules: Match['rules'], moves: readonly Move[], openEnds: readonly { end: End; pips: number }[]): string[] {
  const plays = moves.filter((x) => x.type === 'PLAY' && x.tile).map((x) => ({ tile: x.tile as Tile, end: x.end }));
  let shares: ReturnType<typeof endCounts>;
  try {
    shares = endCounts(buildBoard(plays, rules.spinner), { spinnerEndsCount: rules.spinnerEndsCount === true });
  } catch {
    shares = []; // plays this client cannot lay out (a server newer than it): the ends alone
  }
  if (shares.length !== openEnds.length) return openEnds.map((e) => `${e.end.toLowerCase()} ${e.pips}`);
  return shares.map(({ end, pips, counts, double, sameDoubleAsLeft }) => {
    const words = `${end.toLowerCase()} ${pips}`;
    if (sameDoubleAsLeft) return `${words} (the same double)`;
    if (double) return `${words} (a double: counts ${counts})`;
    return counts === pips ? words : `${words} (the spinner's side: counts ${counts === 0 ? 'nothing' : counts})`;
  });
}

export interface EndedRound {
  number: number;
  moves: MoveWords[];
  result: RoundResult | null;
}

const pips = (tiles: Tile[]): number => tiles.reduce((s, t) => s + t.high + t.low, 0);

/** How a round ended, in a sentence. */
export function roundEndText(m: Pick<Match, 'seats' | 'mySeat'> & Partial<Pick<Match, 'ending'>>, r: EndedRound): string {
  const res = r.result;
  if (!res) return `Round ${r.number} is not over.`;
  const out = res.hands.filter((h) => h.tiles.length === 0).map((h) => seatName(m, h.seat));
  // The page moves on to the next round at once: the play that ended this one is said here.
  const plays = r.moves.filter((x) => x.type === 'PLAY');
  const last = plays.length ? ` The last play: ${moveText(m, plays[plays.length - 1])}.` : '';
  switch (res.end) {
    case 'DOMINO':
      return `Round ${r.number} ended: ${out.join(' & ') || 'a player'} went out (domino).${last}`;
    case 'BLOCKED':
      return `Round ${r.number} ended blocked: nobody could play or draw.${last}`;
    case 'MATCH_WON':
      return `Round ${r.number} ended the match: a play reached the target score.${last}`;
    case 'RESIGNED':
      return `Round ${r.number} was cut short: ${
        m.ending?.cause === 'TIMED_OUT'
          ? 'the match was lost on time'
          : m.ending?.cause === 'RESIGNED'
            ? 'the match was resigned'
            : 'the match ended by resignation or on time'
      }.`;
  }
}

/** Per side: points from plays in the round, the end-of-round bonus and the total. */
export function roundSideLines(m: Pick<Match, 'seats' | 'mySeat' | 'teams'>, r: EndedRound): string[] {
  return m.teams.map((t) => {
    const played = r.moves.filter((x) => t.seats.includes(x.seat)).reduce((s, x) => s + x.points, 0);
    const bonus = r.result?.awarded[t.index] ?? 0;
    return `${sideName(m, t.seats)}: ${played} from plays + ${bonus} bonus = ${played + bonus}`;
  });
}

/** Each seat's tiles left when the round ended. */
export function revealedHandLines(m: Pick<Match, 'seats' | 'mySeat'>, r: EndedRound): string[] {
  return (r.result?.hands ?? []).map(
    (h) => `${seatName(m, h.seat)}: ${h.tiles.length ? `${h.tiles.map(tileText).join(', ')} (${plural(pips(h.tiles), 'pip')})` : 'no tiles left'}`,
  );
}
