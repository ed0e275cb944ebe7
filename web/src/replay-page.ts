import { boardSvg } from '../../src/board/board-svg.js';
import { layoutOf } from '../../src/board/layout.js';
import { gql, ServerError } from './api.js';
import { h, svgFragment } from './dom.js';
import { moveText, seatName } from './match-view.js';
import { BOARD_AT, ROUNDS } from './operations.js';
import type { End, Match, Move, RoundResult, Tile } from './types.js';
import type { Ui } from './ui.js';

interface ReplayRound {
  number: number;
  status: string;
  starter: number;
  result: RoundResult | null;
  moves: Move[];
}
type ReplayMatch = Pick<Match, 'id' | 'status' | 'seats' | 'teams' | 'winner'> & {
  rules: { spinner: 'FIRST_DOUBLE' | 'NONE' };
  rounds: ReplayRound[];
};
type BoardAt = { count: number; openEnds: { end: End; pips: number }[] };

/** A match move by move: a slider over every move; the open ends and count come from Round.boardAt. */
export async function replayPage(id: string, ui: Ui): Promise<HTMLElement> {
  const r = await gql<{ match: ReplayMatch | null }>(ROUNDS, { id });
  if (!r.match) throw new ServerError('NOT_FOUND', `no match ${id}`);
  const m: ReplayMatch = r.match;
  const view = { seats: m.seats, mySeat: null };
  const moves = m.rounds.flatMap((round) => round.moves.map((move) => ({ move, round })));
  const cache = new Map<number, BoardAt>();
  const slider = h('input', {
    type: 'range',
    id: 'replay-seq',
    min: 1,
    max: Math.max(1, moves.length),
    value: Math.max(1, moves.length),
    disabled: moves.length === 0,
  });
  const picture = h('div', { class: 'replay-board' });
  const caption = h('p', { class: 'status', role: 'status', 'data-testid': 'replay-move' });
  const roundInfo = h('div', {});

  async function boardAt(seq: number, round: number): Promise<BoardAt> {
    const hit = cache.get(seq);
    if (hit) return hit;
    // Round.boardAt refuses a seq of another round: ask the one round this move belongs to.
    const res = await gql<{ match: { rounds: { number: number; boardAt: BoardAt | null }[] } }>(BOARD_AT, { id, round, seq });
    const b = res.match.rounds[0]?.boardAt ?? { count: 0, openEnds: [] };
    cache.set(seq, b);
    return b;
  }

  let showing = 0;
  async function show(index: number): Promise<void> {
    const at = moves[index - 1];
    if (!at) return;
    showing = index;
    const { move, round } = at;
    const plays = round.moves.filter((x) => x.seq <= move.seq && x.type === 'PLAY' && x.tile).map((x) => ({ tile: x.tile as Tile, end: x.end }));
    const board = await boardAt(move.seq, round.number);
    if (showing !== index) return; // the slider moved on meanwhile
    const points = m.teams.map((t) =>
      m.rounds.reduce((sum, rd) => {
        const own = rd.moves.filter((x) => x.seq <= move.seq && t.seats.includes(x.seat)).reduce((s, x) => s + x.points, 0);
        const last = rd.moves[rd.moves.length - 1];
        return sum + own + (rd.result && last && last.seq <= move.seq ? (rd.result.awarded[t.index] ?? 0) : 0);
      }, 0),
    );
    picture.replaceChildren(
      svgFragment(
        boardSvg({
          layout: layoutOf(plays, m.rules.spinner),
          openEnds: board.openEnds,
          caption: [
            `Round ${round.number} · move ${move.seq} · count ${board.count}`,
            m.teams.map((t, i) => `${t.seats.map((s) => seatName(view, s)).join(' & ')} ${points[i]}`).join(' · '),
          ],
          title: `Layout after move ${move.seq}`,
        }),
      ),
    );
    caption.textContent = `Move ${move.seq} of ${moves.length}: ${moveText(view, move)}`;
    const last = round.moves[round.moves.length - 1];
    roundInfo.replaceChildren(
      round.result && last?.seq === move.seq
        ? h(
            'p',
            { class: 'result' },
            `Round ${round.number} ended: ${round.result.end.toLowerCase().replace('_', ' ')}; bonus ${round.result.awarded.join(' – ')}`,
          )
        : '',
    );
  }

  slider.addEventListener('input', () => void ui.run(() => show(Number(slider.value))));
  const step = (d: number) => () => {
    slider.value = String(Math.min(moves.length, Math.max(1, Number(slider.value) + d)));
    void ui.run(() => show(Number(slider.value)));
  };
  await show(moves.length);
  return h(
    'div',
    { class: 'replay' },
    h('h1', { tabindex: -1 }, 'Replay'),
    h(
      'p',
      {},
      m.status === 'FINISHED'
        ? `Final: ${m.teams.map((t) => `${t.seats.map((s) => seatName(view, s)).join(' & ')} ${t.score}`).join(' · ')}`
        : `This match is ${m.status.toLowerCase().replace('_', ' ')}.`,
    ),
    h(
      'div',
      { class: 'replay-controls' },
      h('button', { type: 'button', onclick: step(-1) }, 'Previous move'),
      h('label', { for: 'replay-seq' }, 'Move'),
      slider,
      h('button', { type: 'button', onclick: step(1) }, 'Next move'),
    ),
    caption,
    picture,
    roundInfo,
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'results-title' },
      h('h2', { id: 'results-title' }, 'Rounds'),
      h(
        'ul',
        {},
        ...m.rounds.map((rd) =>
          h(
            'li',
            {},
            `Round ${rd.number}: ${rd.result ? `${rd.result.end.toLowerCase().replace('_', ' ')}, bonus ${rd.result.awarded.join(' – ')}` : rd.status.toLowerCase()}`,
          ),
        ),
      ),
      m.status === 'FINISHED' ? h('p', {}, h('a', { href: `/matches/${id}/record` }, 'Match record (JSON)')) : null,
      h('p', {}, h('a', { href: `#/match/${id}` }, 'Back to the match')),
    ),
  );
}
