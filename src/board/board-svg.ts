/**
 * A layout as SVG markup: tiles with their pips, the open ends with the pips they offer, and a few
 * caption lines (scores, whose turn). Pure string building, shared by GET /matches/:id/board.svg
 * and the web client, which highlights the ends a chosen tile may go to.
 */
import type { End } from '../domain/types.js';
import type { Layout, TileBox } from './layout.js';

export interface BoardPicture {
  layout: Layout;
  openEnds: readonly { end: End; pips: number }[];
  /** Text lines under the layout, e.g. the scores and whose turn it is. */
  caption: readonly string[];
  /** Accessible name of the picture. */
  title: string;
  /** Ends to mark as targets for the tile the viewer picked. */
  highlight?: readonly End[];
}

const UNIT = 30; // pixels per tile half
const LINE = 22; // pixels per caption line
const MIN_WIDTH = 420;

export const BOARD_COLORS = {
  felt: '#14532d',
  tile: '#fffbeb',
  edge: '#1c1917',
  pip: '#1c1917',
  last: '#b45309',
  target: '#facc15',
  text: '#ffffff',
};

/** Pip centres inside a unit square, per value (two columns of three for six). */
const PIPS: Record<number, [number, number][]> = {
  0: [],
  1: [[0.5, 0.5]],
  2: [
    [0.27, 0.27],
    [0.73, 0.73],
  ],
  3: [
    [0.25, 0.25],
    [0.5, 0.5],
    [0.75, 0.75],
  ],
  4: [
    [0.27, 0.27],
    [0.73, 0.27],
    [0.27, 0.73],
    [0.73, 0.73],
  ],
  5: [
    [0.25, 0.25],
    [0.75, 0.25],
    [0.5, 0.5],
    [0.25, 0.75],
    [0.75, 0.75],
  ],
  6: [
    [0.27, 0.22],
    [0.27, 0.5],
    [0.27, 0.78],
    [0.73, 0.22],
    [0.73, 0.5],
    [0.73, 0.78],
  ],
};

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

const n = (v: number): string => String(Math.round(v * 10) / 10);

function pips(value: number, x: number, y: number): string {
  return (PIPS[value] ?? []).map(([px, py]) => `<circle cx="${n(x + px * UNIT)}" cy="${n(y + py * UNIT)}" r="${n(UNIT * 0.09)}"/>`).join('');
}

function tileMarkup(t: TileBox, ox: number, oy: number, last: boolean): string {
  const x = (t.x - ox) * UNIT;
  const y = (t.y - oy) * UNIT;
  const w = t.w * UNIT;
  const h = t.h * UNIT;
  const vertical = t.h > t.w;
  const divider = vertical ? `M${n(x + 3)} ${n(y + h / 2)}h${n(w - 6)}` : `M${n(x + w / 2)} ${n(y + 3)}v${n(h - 6)}`;
  const second = vertical ? pips(t.second, x, y + UNIT) : pips(t.second, x + UNIT, y);
  const stroke = last ? BOARD_COLORS.last : BOARD_COLORS.edge;
  return (
    `<g class="tile${t.spinner ? ' spinner' : ''}${last ? ' last' : ''}"><title>${t.first}-${t.second}${t.spinner ? ' (spinner)' : ''}</title>` +
    `<rect x="${n(x + 1)}" y="${n(y + 1)}" width="${n(w - 2)}" height="${n(h - 2)}" rx="4" fill="${BOARD_COLORS.tile}" stroke="${stroke}" stroke-width="${last ? 3 : 1.5}"/>` +
    `<path d="${divider}" stroke="${BOARD_COLORS.edge}" stroke-width="1"/>` +
    `<g fill="${BOARD_COLORS.pip}">${pips(t.first, x, y)}${second}</g></g>`
  );
}

/** A standalone SVG document (it also works inline in HTML). */
export function boardSvg(p: BoardPicture): string {
  const { minX, minY, maxX, maxY } = p.layout.bounds;
  const boardW = (maxX - minX) * UNIT;
  const width = Math.max(MIN_WIDTH, boardW);
  const ox = minX - (width - boardW) / 2 / UNIT;
  const boardH = (maxY - minY) * UNIT;
  const height = boardH + p.caption.length * LINE + 12;
  const lastOrder = Math.max(-1, ...p.layout.tiles.map((t) => t.order));
  const tiles = p.layout.tiles.map((t) => tileMarkup(t, ox, minY, t.order === lastOrder && lastOrder > 0)).join('');
  const highlight = new Set(p.highlight ?? []);
  const ends = p.openEnds
    .map((e) => {
      const a = p.layout.anchors[e.end];
      if (!a) return '';
      const cx = (a.x - ox) * UNIT;
      const cy = (a.y - minY) * UNIT;
      const on = highlight.has(e.end);
      return (
        `<g class="end${on ? ' target' : ''}" data-end="${e.end}"><title>${e.end} end: ${e.pips}</title>` +
        `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(UNIT * 0.45)}" fill="${on ? BOARD_COLORS.target : 'none'}" stroke="${on ? BOARD_COLORS.target : BOARD_COLORS.text}" stroke-width="2" stroke-dasharray="${on ? '' : '3 3'}"/>` +
        `<text x="${n(cx)}" y="${n(cy + 5)}" text-anchor="middle" font-size="14" font-weight="bold" fill="${on ? BOARD_COLORS.edge : BOARD_COLORS.text}">${e.pips}</text></g>`
      );
    })
    .join('');
  const caption = p.caption
    .map((line, i) => `<text x="10" y="${n(boardH + 4 + (i + 1) * LINE - 6)}" font-size="15" fill="${BOARD_COLORS.text}">${escapeXml(line)}</text>`)
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n(width)} ${n(height)}" width="${n(width)}" height="${n(height)}" role="img" aria-label="${escapeXml(p.title)}" font-family="system-ui, sans-serif">` +
    `<title>${escapeXml(p.title)}</title>` +
    `<rect width="100%" height="100%" fill="${BOARD_COLORS.felt}"/>` +
    tiles +
    ends +
    caption +
    `</svg>`
  );
}

/** One tile on its own, upright (a hand's tile): the same drawing as on the layout. */
export function tileSvg(high: number, low: number, label: string): string {
  const box: TileBox = { x: 0, y: 0, w: 1, h: 2, first: high, second: low, order: 0, spinner: false };
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${UNIT} ${2 * UNIT}" width="${UNIT}" height="${2 * UNIT}" role="img" aria-label="${escapeXml(label)}">` +
    tileMarkup(box, 0, 0, false) +
    `</svg>`
  );
}
