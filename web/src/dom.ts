/** A tiny element builder: enough for this client without a UI framework. */
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2).toLowerCase(), value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** The smallest share of its drawn size a picture is shrunk to; below it, its box scrolls sideways. */
const MIN_SCALE = 0.7;

/**
 * Markup produced by our own drawing code (numbers and escaped names only). The picture fills its
 * box's width, but a long layout on a narrow screen is not shrunk past MIN_SCALE, where tiles and
 * pips stay readable: the box scrolls instead, and takes focus so the keyboard can scroll it.
 */
export function svgFragment(markup: string): HTMLElement {
  const box = document.createElement('div');
  box.className = 'board-picture';
  box.innerHTML = markup;
  const svg = box.querySelector('svg');
  const width = Number(svg?.getAttribute('width'));
  if (svg && width > 0) svg.style.minWidth = `${Math.round(width * MIN_SCALE)}px`;
  box.tabIndex = 0;
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', 'Layout picture');
  return box;
}

/**
 * Scrolls a board picture too wide for its box (a phone): back to where the reader had it when
 * the layout is the same (a redraw for a selected tile), else so the last tile played, or the
 * spinner, is in the middle: where the play is, rather than the layout's far left. Once the box
 * is laid out, so after the page has put it in.
 */
export function placeBoard(box: HTMLElement, keptScroll: number | null): void {
  if (keptScroll !== null) box.dataset.keptScroll = String(keptScroll);
  requestAnimationFrame(() => {
    box.dataset.placed = 'true'; // its scroll is the reader's from now on: a redraw may keep it
    if (box.scrollWidth <= box.clientWidth) return;
    if (keptScroll !== null) return void (box.scrollLeft = keptScroll);
    const tile = box.querySelector('g.tile.last') ?? box.querySelector('g.tile.spinner');
    if (!tile) return;
    const t = tile.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    box.scrollLeft += t.left + t.width / 2 - (b.left + b.width / 2);
  });
}
