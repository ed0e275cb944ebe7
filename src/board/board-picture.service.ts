import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { boardAt } from '../history/board-at.js';
import { matchIdOf } from '../matches/command-runner.js';
import { MatchesService } from '../matches/matches.service.js';
import { MatchStatus, MoveType } from '../matches/models/enums.js';
import type { Match } from '../matches/models/match.model.js';
import type { Round } from '../matches/models/round.model.js';
import { RoundsService } from '../matches/rounds.service.js';
import { boardSvg } from './board-svg.js';
import { layoutOf } from './layout.js';

export interface BoardPictureResult {
  svg: string;
  /** A finished match's picture never changes, so it may be cached. */
  final: boolean;
}

/** Parses `?seq=`: absent means the latest move; otherwise a positive integer. */
export function parseSeq(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return null;
  if (!/^[0-9]{1,9}$/.test(raw) || Number(raw) < 1)
    throw new ApiError('BAD_USER_INPUT', `seq must be a positive integer (got ${JSON.stringify(raw)})`);
  return Number(raw);
}

/** The public picture of a match after one of its moves: the layout, the scores, whose turn. */
@Injectable()
export class BoardPictureService {
  constructor(
    private readonly matches: MatchesService,
    private readonly rounds: RoundsService,
  ) {}

  async picture(matchId: string, seq: number | null): Promise<BoardPictureResult> {
    matchId = matchIdOf(matchId);
    const match = await this.matches.get(matchId, null);
    if (!match) throw new ApiError('NOT_FOUND', `no match ${matchId}`);
    const rounds = await this.rounds.roundsOf(match);
    const moves = rounds.flatMap((r) => r.moves);
    const latest = moves.length > 0 ? moves[moves.length - 1].seq : 0;
    if (seq !== null && seq > latest) throw new ApiError('NOT_FOUND', `match ${matchId} has no move ${seq} (its latest is ${latest})`);
    const at = seq ?? latest;
    const round = at === 0 ? rounds[rounds.length - 1] : rounds.find((r) => r.moves.some((m) => m.seq === at));
    const svg = boardSvg({
      title: `Match ${matchId}${at > 0 ? ` after move ${at}` : ''}`,
      ...this.boardOf(match, round, at),
      caption: [this.scoreLine(match, rounds, at, latest), this.turnLine(match, moves, at, latest)],
    });
    const final = match.status === MatchStatus.FINISHED || match.status === MatchStatus.ABANDONED;
    return { svg, final };
  }

  private boardOf(match: Match, round: Round | undefined, at: number) {
    if (!round || at === 0) return { layout: layoutOf([], match.rules.spinner), openEnds: [] };
    const plays = round.moves.filter((m) => m.seq <= at && m.type === MoveType.PLAY && m.tile).map((m) => ({ tile: m.tile!, end: m.end }));
    const board = boardAt(round.moves, at, match.rules)!;
    return { layout: layoutOf(plays, match.rules.spinner), openEnds: board.openEnds, count: board.count };
  }

  /** Seats are counted from 1 for people, as the web client names them ("Bot 2" sits in seat 1). */
  private seatName(match: Match, seat: number): string {
    const s = match.seats[seat];
    return s?.player?.name ?? (s?.isBot ? `Bot ${seat + 1}` : `Seat ${seat + 1}`);
  }

  /** Scores after move `at`: the points of every move so far plus the bonus of every round over by then. */
  private scoreLine(match: Match, rounds: Round[], at: number, latest: number): string {
    const scores =
      at === latest
        ? match.teams.map((t) => t.score)
        : match.teams.map((t) => {
            let score = 0;
            for (const r of rounds) {
              for (const m of r.moves) if (m.seq <= at && t.seats.includes(m.seat)) score += m.points;
              const last = r.moves[r.moves.length - 1];
              if (r.result && last && last.seq <= at) score += r.result.awarded[t.index] ?? 0;
            }
            return score;
          });
    return match.teams.map((t, i) => `${t.seats.map((s) => this.seatName(match, s)).join(' & ')} ${scores[i]}`).join(' · ');
  }

  private turnLine(match: Match, moves: { seq: number; seat: number }[], at: number, latest: number): string {
    const count = at === 0 ? '' : ` · after move ${at}`;
    if (at === latest) {
      if (match.status === MatchStatus.FINISHED)
        return `Finished: ${match.winner ? match.winner.seats.map((s) => this.seatName(match, s)).join(' & ') : 'nobody'} won${count}`;
      if (match.turn === null) return `${match.status.toLowerCase().replace('_', ' ')}${count}`;
      return `To move: ${this.seatName(match, match.turn)}${count}`;
    }
    const next = moves.find((m) => m.seq === at + 1);
    return `To move: ${next ? this.seatName(match, next.seat) : '?'}${count}`;
  }
}
