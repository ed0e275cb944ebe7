import { buildBoard, countOf } from '../domain/index.js';
import { boardAt, type ReplayMove } from './board-at.js';

const P = (seq: number, high: number, low: number, end: ReplayMove['end'], count: number | null = null): ReplayMove => ({
  seq,
  type: 'PLAY',
  tile: { high, low },
  end,
  count,
});
const D = (seq: number): ReplayMove => ({ seq, type: 'DRAW', tile: null, end: null, count: null });

describe('boardAt', () => {
  // 5-5 spinner lead, 5-0 on each side, then UP/DOWN open.
  const moves = [P(11, 5, 5, null, 10), D(12), P(13, 5, 0, 'LEFT', 10), P(14, 5, 1, 'RIGHT', 1), P(15, 5, 4, 'UP', 5)];

  it('replays the plays up to seq; draws leave the layout as it was', () => {
    const rules = { spinner: 'FIRST_DOUBLE' as const, spinnerEndsCount: false };
    expect(boardAt(moves, 11, rules)).toEqual({
      openEnds: [
        { end: 'LEFT', pips: 5 },
        { end: 'RIGHT', pips: 5 },
      ],
      count: 10,
      spinner: { high: 5, low: 5 },
    });
    expect(boardAt(moves, 12, rules)).toEqual(boardAt(moves, 11, rules));
    const last = boardAt(moves, 15, rules)!;
    const built = buildBoard(moves.filter((m) => m.type === 'PLAY').map((m) => ({ tile: m.tile!, end: m.end as never })));
    expect(last.count).toBe(countOf(built, rules));
    expect(last.openEnds.map((e) => e.end)).toEqual(['LEFT', 'RIGHT', 'UP', 'DOWN']);
  });

  it('answers null for a seq outside the round', () => {
    const rules = { spinner: 'FIRST_DOUBLE' as const, spinnerEndsCount: false };
    expect(boardAt(moves, 10, rules)).toBeNull();
    expect(boardAt(moves, 16, rules)).toBeNull();
  });
});
