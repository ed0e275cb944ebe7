import { boardSvg, tileSvg } from './board-svg.js';
import { layoutOf, type Play } from './layout.js';

const t = (high: number, low: number) => ({ high, low });
const play = (high: number, low: number, end: Play['end'] = null): Play => ({ tile: t(high, low), end });

describe('layoutOf', () => {
  it('lays a non-double lead along the line, its high half facing LEFT', () => {
    const { tiles, anchors } = layoutOf([play(5, 3)], 'FIRST_DOUBLE');
    expect(tiles).toEqual([{ x: -1, y: -0.5, w: 2, h: 1, first: 5, second: 3, order: 0, spinner: false }]);
    expect(anchors.LEFT!.x).toBeLessThan(-1);
    expect(anchors.RIGHT!.x).toBeGreaterThan(1);
    expect(anchors.UP).toBeUndefined();
  });

  it('grows each arm outward with the touching half inward, doubles across the line', () => {
    const { tiles } = layoutOf([play(5, 3), play(5, 5, 'LEFT'), play(3, 1, 'RIGHT'), play(5, 2, 'LEFT')], 'NONE');
    const [, double, left, right] = tiles; // the lead, the LEFT arm outward, then the RIGHT arm
    expect(double).toMatchObject({ x: -2, y: -1, w: 1, h: 2, first: 5, second: 5 });
    expect(right).toMatchObject({ x: 1, w: 2, h: 1, first: 3, second: 1 });
    expect(left).toMatchObject({ x: -4, w: 2, first: 2, second: 5 });
    expect(tiles.map((x) => x.order)).toEqual([0, 1, 3, 2]);
  });

  it('opens UP and DOWN on a spinner played into an arm, at its place on the line', () => {
    const plays = [play(5, 3), play(5, 5, 'LEFT'), play(5, 1, 'LEFT'), play(5, 6, 'UP'), play(6, 6, 'UP'), play(5, 0, 'DOWN')];
    const { tiles, anchors } = layoutOf(plays, 'FIRST_DOUBLE');
    const spinner = tiles.find((x) => x.spinner)!;
    expect(spinner).toMatchObject({ x: -2, first: 5, second: 5 });
    const [up, upDouble, down] = tiles.slice(3);
    expect(up).toMatchObject({ x: -2, y: -3, w: 1, h: 2, first: 6, second: 5 });
    expect(upDouble).toMatchObject({ x: -2.5, y: -4, w: 2, h: 1, first: 6, second: 6 });
    expect(down).toMatchObject({ x: -2, y: 1, w: 1, h: 2, first: 5, second: 0 });
    expect(anchors.UP!.x).toBe(-1.5);
    expect(anchors.DOWN!.y).toBeGreaterThan(3);
  });

  it('is empty before the lead', () => {
    expect(layoutOf([], 'FIRST_DOUBLE').tiles).toEqual([]);
  });
});

describe('boardSvg', () => {
  it('draws every tile and open end, marks targets, and escapes caption text', () => {
    const layout = layoutOf([play(6, 6), play(6, 2, 'LEFT')], 'FIRST_DOUBLE');
    const svg = boardSvg({
      layout,
      openEnds: [
        { end: 'LEFT', pips: 2 },
        { end: 'RIGHT', pips: 6 },
      ],
      caption: ['<Ada> & Bob 10'],
      title: 'The layout',
      highlight: ['RIGHT'],
    });
    expect(svg.match(/<g class="tile/g)).toHaveLength(2);
    expect(svg).toContain('<g class="end" data-end="LEFT">');
    expect(svg).toContain('<g class="end target" data-end="RIGHT">');
    expect(svg).toContain('&lt;Ada&gt; &amp; Bob 10');
    expect(svg).not.toContain('<Ada>');
    // 6-6 and 6-2: twelve pips of the double, eight of the other tile.
    expect(svg.match(/<circle cx="[\d.]+" cy="[\d.]+" r="2.7"\/>/g)).toHaveLength(20);
  });

  it('draws a hand tile upright with its label', () => {
    expect(tileSvg(3, 1, '3-1')).toContain('aria-label="3-1"');
  });
});
