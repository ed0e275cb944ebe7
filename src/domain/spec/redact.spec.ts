/** redactMove: the one rule for what a move shows, whoever reads it. */
import { redactMove } from '../redact.js';
import type { MoveRecord } from '../types.js';

const move = (type: MoveRecord['type'], seat: number, tile: MoveRecord['tile']): MoveRecord => ({
  seq: 1,
  round: 1,
  seat,
  type,
  tile,
  end: null,
  points: 0,
  count: null,
});

describe('redactMove', () => {
  const draw = move('DRAW', 1, { high: 4, low: 2 });

  it("hides another seat's draw while its round is live, from seats and spectators alike", () => {
    expect(redactMove(draw, 0, false).tile).toBeNull();
    expect(redactMove(draw, null, false).tile).toBeNull();
    expect(redactMove(draw, 0, false)).toEqual({ ...draw, tile: null });
  });

  it('shows a draw to its drawer, and to everyone once the round is over', () => {
    expect(redactMove(draw, 1, false).tile).toEqual({ high: 4, low: 2 });
    expect(redactMove(draw, 0, true).tile).toEqual({ high: 4, low: 2 });
    expect(redactMove(draw, null, true).tile).toEqual({ high: 4, low: 2 });
  });

  it('always shows a play, and a pass has nothing to show', () => {
    const play = move('PLAY', 1, { high: 6, low: 6 });
    expect(redactMove(play, 0, false)).toBe(play);
    const pass = move('PASS', 1, null);
    expect(redactMove(pass, 0, false)).toBe(pass);
  });
});
