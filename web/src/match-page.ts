import { boardSvg, tileSvg } from '../../src/board/board-svg.js';
import { layoutOf } from '../../src/board/layout.js';
import { gql, ServerError, session } from './api.js';
import { h, placeBoard, svgFragment } from './dom.js';
import { followMatch, followMyMatch } from './feed.js';
import {
  bankText,
  boardSummary,
  deadlineNear,
  deadlineText,
  durationText,
  endsFor,
  moveText,
  revealedHandLines,
  roundEndText,
  roundSideLines,
  sameTile,
  seatName,
  sideName,
  statusText,
  tileText,
  type EndedRound,
} from './match-view.js';
import { DRAW, JOIN, LEAVE, MATCH, PLAY, REMATCH, RESIGN, ROUND_RESULTS } from './operations.js';
import type { End, Match, Move, Tile } from './types.js';
import { whileShown, type Ui } from './ui.js';

const MOVE_SEQS = `query MoveSeqs($id: ID!) { match(id: $id) { id rounds { moves { seq } } } }`;

/** The page's title; a match page puts "Your turn" before it while it is (a tab in the background shows it). */
const BASE_TITLE = 'Straight Dominoes';

const isMyTurn = (m: Match): boolean => m.status === 'IN_PROGRESS' && m.turn !== null && m.turn === m.mySeat;

function moveId(): string {
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/**
 * The last Move.seq of the match, where its event feed may start (see followMatch). A round that
 * has just begun has no move yet: the earlier rounds' seqs are asked for then (numbers only), so
 * a long match is not replayed from its first event.
 */
async function lastMoveSeq(id: string, match: Match): Promise<number> {
  const own = match.currentRound?.moves.at(-1)?.seq;
  if (own !== undefined) return own;
  if ((match.currentRound?.number ?? 1) <= 1) return 0;
  const r = await gql<{ match: { rounds: { moves: { seq: number }[] }[] } | null }>(MOVE_SEQS, { id });
  return Math.max(0, ...(r.match?.rounds.flatMap((x) => x.moves.map((m) => m.seq)) ?? []));
}

/** More moves than this arriving at once (a catch-up) are summed up, not read out one by one. */
const MOVES_READ_OUT = 3;

/** Play or watch one match: everything drawn from the latest Match the server sent. */
export async function matchPage(requested: string, shell: Ui): Promise<{ element: HTMLElement; leave: () => void }> {
  const first = await gql<{ match: Match | null }>(MATCH, { id: requested });
  if (!first.match) throw new ServerError('NOT_FOUND', `no match ${requested}`);
  // The id as the server writes it (one typed in capitals names the same match).
  const id = first.match.id;
  // Where the feed starts, read before anything subscribes: a failure here leaves nothing running.
  const startSeq = await lastMoveSeq(id, first.match);
  let left = false;
  const ui = whileShown(shell, () => !left);
  let match: Match = first.match;
  let selected: Tile | null = null;
  let busy = false;
  let results: EndedRound[] = [];
  let resultsFor = '';
  let resultsLoading = false;
  /** The match ended while the page was open, and that was not said yet (see sayFinish). */
  let finishUnsaid = false;
  /** The last round whose end was known (announced or there at load): later ones are announced. */
  let announcedRound: number | null = null;
  let keepFocus = false;
  /** Why the last tile the player tried cannot go (shown under the hand until the match moves). */
  let hint: string | null = null;
  /** The hand tile that takes Tab (roving focus: the arrow keys move between tiles). */
  let rovingKey: string | null = null;
  let stopMine: (() => void) | null = null;
  const root = h('div', { class: 'match' });

  /** Returns whether this view made it the player's turn (it was not in the view shown before). */
  const update = (m: Match): boolean => {
    if (m.version < match.version) return false; // an older view than the one shown
    const offered = !match.rematch && m.rematch;
    const turnArrived = isMyTurn(m) && !isMyTurn(match);
    if (m.version > match.version) hint = null;
    if (m.status === 'FINISHED' && match.status !== 'FINISHED') finishUnsaid = true;
    match = m;
    if (selected && !endsFor(m, selected).length) selected = null;
    draw();
    void loadResults();
    followOwnMatch();
    if (offered && m.rematch && m.rematch.mySeat === null && m.mySeat !== null) ui.announce(`${rematchOfferText(m.rematch)}.`);
    return turnArrived;
  };
  const refetch = async (): Promise<void> => {
    const r = await gql<{ match: Match | null }>(MATCH, { id });
    if (r.match && update(r.match)) ui.announce('Your turn.');
  };
  const loadResults = async (): Promise<void> => {
    // Round results change only when a round ends: fetch them once per round number.
    const n = match.currentRound?.number ?? 0;
    const over = match.currentRound?.status !== 'IN_PROGRESS';
    const key = `${n}:${over}`;
    if (key === resultsFor) {
      if (!resultsLoading) sayFinish(); // else the results on their way say it
      return;
    }
    resultsFor = key;
    if (n < 2 && !over) {
      announcedRound ??= 0;
      return;
    }
    resultsLoading = true;
    const r = await gql<{ match: { rounds: EndedRound[] } | null }>(ROUND_RESULTS, { id }).catch(() => null);
    resultsLoading = false;
    if (!r?.match) {
      resultsFor = ''; // asked again with the next view of the match
      sayFinish();
      return;
    }
    results = r.match.rounds.filter((x) => x.result);
    const latest = results.at(-1);
    // A round that ended while the page was open is announced; one that was over at load is not.
    if (latest && announcedRound !== null && latest.number > announcedRound) {
      const finish = finishUnsaid && match.status === 'FINISHED' ? `${statusText(match)}. ` : '';
      if (finish) finishUnsaid = false;
      ui.announce(`${finish}${roundEndText(match, latest)} ${roundSideLines(match, latest).join('. ')}. Scores: ${scoreText()}.`);
    }
    announcedRound = latest?.number ?? 0;
    sayFinish();
    draw();
  };
  /** Says once that the match ended while the page was open (with the last round's result, when loadResults has it). */
  const sayFinish = (): void => {
    if (!finishUnsaid || match.status !== 'FINISHED') return;
    finishUnsaid = false;
    ui.announce(`${statusText(match)}.`);
  };
  const scoreText = (): string => match.teams.map((t) => `${sideName(match, t.seats)} ${t.score}`).join(', ');

  /**
   * After the end, the match's event feed has completed: an offered rematch reaches its players
   * on myTurns (docs/clients.md), so a player of a finished match follows that, and reads the
   * match once subscribed, for an offer made before the subscription began.
   */
  function followOwnMatch(): void {
    const wanted =
      match.status === 'FINISHED' && match.mySeat !== null && session() !== null && (match.rematch === null || match.rematch.mySeat === null);
    if (wanted && !stopMine) {
      stopMine = followMyMatch(id, { match: update, error: (message) => ui.showError(message) });
      void refetch().catch(() => {});
    } else if (!wanted && stopMine) {
      stopMine();
      stopMine = null;
    }
  }

  const command = async (query: string, variables: Record<string, unknown>, field: string): Promise<void> => {
    if (busy) return;
    busy = true;
    draw(); // its controls show it is under way (a second press does nothing)
    const ok = await ui.run(async () => {
      const r = await gql<Record<string, Match>>(query, variables);
      update(r[field]);
    });
    busy = false;
    if (!ok) await refetch().catch(() => {});
    draw();
  };
  const rematch = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    draw();
    await ui.run(async () => {
      const r = await gql<{ rematch: { id: string } }>(REMATCH, { id });
      ui.go(`#/match/${r.rematch.id}`);
    });
    busy = false;
    draw();
  };
  const play = (tile: Tile, end: End | null): Promise<void> => {
    selected = null;
    const input = { matchId: id, tile: { high: tile.high, low: tile.low }, end, expectedVersion: match.version, clientMoveId: moveId() };
    return command(PLAY, { input }, 'playTile');
  };
  /** A tile that cannot be played now was chosen: say why, on the page and to screen readers. */
  const refuse = (tile: Tile): void => {
    hint = !isMyTurn(match)
      ? match.status === 'IN_PROGRESS'
        ? 'It is not your turn.'
        : 'The match is not in play.'
      : `${tileText(tile)} matches no open end${match.canDraw ? ': play another tile, or draw' : ''}.`;
    // The same words again are still news: the live region is emptied first, so it is read again.
    const words = hint;
    ui.announce('');
    requestAnimationFrame(() => ui.announce(words));
    draw();
  };
  const choose = (tile: Tile): void => {
    const ends = endsFor(match, tile);
    if (ends.length === 1) void play(tile, ends[0]);
    else {
      selected = tile;
      draw();
      root.querySelector<HTMLElement>('.end-choice')?.focus();
    }
  };

  /** Arrow keys (and Home, End) move focus between the hand's tiles; Tab leaves the hand. */
  const roveHand = (e: KeyboardEvent): void => {
    const tiles = [...root.querySelectorAll<HTMLElement>('.hand-tile')];
    const at = tiles.indexOf(document.activeElement as HTMLElement);
    if (at < 0) return;
    const next =
      e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? (at + 1) % tiles.length
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? (at - 1 + tiles.length) % tiles.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? tiles.length - 1
              : null;
    if (next === null) return;
    e.preventDefault();
    for (const t of tiles) t.tabIndex = -1;
    tiles[next].tabIndex = 0;
    tiles[next].focus();
    rovingKey = tiles[next].getAttribute('data-key');
  };

  function handSection(): HTMLElement | null {
    if (match.mySeat === null || !match.myHand) return null;
    const myTurn = match.status === 'IN_PROGRESS' && match.turn === match.mySeat;
    const keys = match.myHand.map((t) => `tile-${tileText(t)}`);
    // Tab into the hand lands on the first playable tile, unless the player is moving through it.
    const inHand = (document.activeElement as HTMLElement | null)?.classList.contains('hand-tile') && root.contains(document.activeElement);
    if (!inHand || !rovingKey || !keys.includes(rovingKey)) {
      const firstLegal = match.myHand.findIndex((t) => myTurn && endsFor(match, t).length > 0);
      rovingKey = keys[Math.max(0, firstLegal)] ?? null;
    }
    const tiles = match.myHand.map((t, i) => {
      const legal = myTurn && endsFor(match, t).length > 0;
      const label = legal ? `Play ${tileText(t)}` : `${tileText(t)} (not playable now)`;
      // Unplayable tiles stay focusable (aria-disabled, not disabled): a keyboard or screen
      // reader user can still go through the whole hand. Their click is refused here.
      const button = h('button', {
        type: 'button',
        class: `hand-tile${legal ? ' legal' : ''}${selected && sameTile(selected, t) ? ' selected' : ''}`,
        'data-key': keys[i],
        'aria-label': label,
        'aria-disabled': String(!legal || busy),
        tabindex: keys[i] === rovingKey ? 0 : -1,
        onclick: () => {
          if (busy) return;
          if (legal) choose(t);
          else refuse(t);
        },
        onfocus: () => {
          rovingKey = keys[i];
        },
      });
      button.innerHTML = tileSvg(t.high, t.low, tileText(t));
      return button;
    });
    const endChoice = selected ? endChoiceGroup(selected) : null;
    const row = h('div', { class: 'tiles', role: 'toolbar', 'aria-label': 'Tiles in your hand' }, ...tiles);
    row.addEventListener('keydown', roveHand);
    return h(
      'section',
      { class: 'hand card', 'aria-labelledby': 'hand-title' },
      // Where focus goes when the control that had it is gone (their tile was played): not onto
      // another tile, where a second press of Enter meant for the first would play it.
      h('h2', { id: 'hand-title', tabindex: -1, 'data-key': 'hand-title' }, 'Your hand'),
      row,
      hint ? h('p', { class: 'hand-hint', 'data-testid': 'hand-hint' }, hint) : null,
      endChoice,
      match.canDraw
        ? h(
            'button',
            {
              type: 'button',
              class: 'draw',
              'data-key': 'draw',
              // Not disabled while a move is under way: focus stays on it for the next draw.
              'aria-disabled': String(busy),
              onclick: () => void command(DRAW, { input: { matchId: id, expectedVersion: match.version, clientMoveId: moveId() } }, 'drawTile'),
            },
            'Draw a tile',
          )
        : null,
    );
  }

  /**
   * Where to play a tile that fits more than one end. The tile is the one shown: a second press
   * after the first sent it finds nothing selected and the page busy, and does nothing.
   */
  function endChoiceGroup(tile: Tile): HTMLElement {
    const cancel = (): void => {
      selected = null;
      draw();
      root.querySelector<HTMLElement>(`[data-key="tile-${tileText(tile)}"]`)?.focus(); // back where the choice began
    };
    const group = h(
      'div',
      { class: 'end-choices', role: 'group', 'aria-label': `Where to play ${tileText(tile)}` },
      h('span', {}, `Play ${tileText(tile)} on: `),
      ...endsFor(match, tile).map((end) =>
        h(
          'button',
          { type: 'button', class: 'end-choice', 'data-key': `end-${end}`, onclick: () => busy || void play(tile, end) },
          `${(end ?? 'lead').toLowerCase()} end (${match.currentRound?.board.openEnds.find((e) => e.end === end)?.pips ?? ''})`,
        ),
      ),
      h('button', { type: 'button', class: 'secondary', 'data-key': 'cancel', onclick: cancel }, 'Cancel'),
    );
    group.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') cancel();
    });
    return group;
  }

  /** The layout the board shows now (round and plays), to tell a new play from a redraw. */
  let drawnLayout = '';

  function boardSection(): HTMLElement {
    const round = match.currentRound;
    const plays = (round?.moves ?? []).filter((m) => m.type === 'PLAY' && m.tile).map((m) => ({ tile: m.tile as Tile, end: m.end }));
    const highlight = selected ? (endsFor(match, selected).filter(Boolean) as End[]) : [];
    const picture = svgFragment(
      boardSvg({
        layout: layoutOf(plays, match.rules.spinner),
        openEnds: round?.board.openEnds ?? [],
        caption: round ? [`Round ${round.number} · count ${round.board.count} · boneyard ${round.boneyardCount}`] : ['Not started'],
        title: 'The layout',
        highlight,
      }),
    );
    picture.querySelector('svg')?.setAttribute('aria-describedby', 'board-summary');
    // The same layout drawn again keeps the reader's scroll; a new play is brought into view.
    const layoutKey = `${round?.number ?? 0}:${plays.length}`;
    const shown = root.querySelector<HTMLElement>('.board .board-picture');
    // (A picture redrawn before it was placed, in the same frame, passes on what it was to do.)
    const kept = !shown || layoutKey !== drawnLayout ? null : shown.dataset.placed ? shown.scrollLeft : (shown.dataset.keptScroll ?? null);
    placeBoard(picture, kept === null ? null : Number(kept));
    drawnLayout = layoutKey;
    picture.addEventListener('click', (e) => {
      const end = (e.target as Element).closest('.end.target')?.getAttribute('data-end') as End | null;
      if (end && selected) void play(selected, end);
    });
    return h(
      'section',
      { class: 'board card', 'aria-labelledby': 'board-title' },
      h('h2', { id: 'board-title' }, 'Board'),
      h('p', { id: 'board-summary', class: 'board-summary', 'data-testid': 'board-summary' }, boardSummary(match)),
      picture,
    );
  }

  /** A seat's time bank, kept current by the ticker below while the seat is to move. */
  const bankCell = (seat: number): HTMLElement => h('span', { class: 'bank', 'data-seat': seat }, bankText(match, seat, Date.now()) ?? '');

  function scoresSection(): HTMLElement {
    // A BANK clock's time is the match's, not the turn's: each seat's bank stands beside its score.
    const banks = match.clock?.kind === 'BANK' && match.status === 'IN_PROGRESS';
    return h(
      'section',
      { class: 'card', 'aria-labelledby': 'scores-title' },
      h('h2', { id: 'scores-title' }, 'Scores'),
      h(
        'table',
        { class: 'scores', 'data-testid': 'scores' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'Side'),
            h('th', { scope: 'col' }, 'Tiles in hand'),
            banks ? h('th', { scope: 'col' }, 'Time bank') : null,
            h('th', { scope: 'col' }, 'Score'),
          ),
        ),
        h(
          'tbody',
          {},
          ...match.teams.map((t) =>
            h(
              'tr',
              { class: t.seats.includes(match.turn ?? -1) ? 'to-move' : '' },
              h('td', {}, sideName(match, t.seats)),
              h('td', {}, t.seats.map((s) => match.seats[s].handCount).join(' & ')),
              banks ? h('td', {}, ...t.seats.flatMap((s, i) => [i > 0 ? ' & ' : '', bankCell(s)])) : null,
              h('td', { class: 'score', 'data-team': t.index }, String(t.score)),
            ),
          ),
        ),
      ),
      h('p', {}, `First to ${match.rules.targetScore} wins.`),
    );
  }

  /** Who (of this match's players) sits in the rematch: they asked for it. */
  function rematchOfferText(r: NonNullable<Match['rematch']>): string {
    const mine = new Set(match.seats.map((s) => s.player?.id).filter(Boolean));
    const names = r.seats.filter((s) => s.player && mine.has(s.player.id)).map((s) => s.player?.name ?? '');
    return names.length ? `${names.join(' & ')} ${names.length === 1 ? 'offers' : 'offer'} a rematch` : 'A rematch is offered';
  }

  function rematchActions(): (HTMLElement | null)[] {
    if (match.status !== 'FINISHED') return [];
    const seated = match.mySeat !== null;
    const r = match.rematch;
    if (!r) {
      return [
        seated && session() ? h('button', { type: 'button', 'data-key': 'rematch', disabled: busy, onclick: () => void rematch() }, 'Rematch') : null,
      ];
    }
    if (r.mySeat !== null) return [h('a', { href: `#/match/${r.id}`, 'data-key': 'rematch-link' }, 'Go to the rematch')];
    if (seated && session() && r.status === 'WAITING') {
      return [
        h('span', { class: 'offer' }, `${rematchOfferText(r)}.`),
        h('button', { type: 'button', 'data-key': 'rematch', disabled: busy, onclick: () => void rematch() }, 'Join the rematch'),
      ];
    }
    return [h('a', { href: `#/match/${r.id}`, 'data-key': 'rematch-link' }, 'Watch the rematch')];
  }

  /**
   * A public match: the first free seat, or a chosen one (with partnerships, the seat picks the
   * partner). A private one is joined only with its invite code, which its players have.
   */
  function joinActions(): (HTMLElement | null)[] {
    if (match.private) return [h('span', { class: 'offer' }, 'A private match: join it with its invite code, from one of its players.')];
    const free = match.seats.filter((s) => !s.player && !s.isBot).map((s) => s.index);
    const partnerOf = (seat: number): string | null => {
      const team = match.teams.find((t) => t.seats.includes(seat));
      const partners = (team?.seats ?? []).filter((s) => s !== seat && (match.seats[s].player || match.seats[s].isBot));
      return partners.length && match.teams.length < match.seats.length ? sideName(match, partners) : null;
    };
    return [
      h('button', { type: 'button', 'data-key': 'join', onclick: () => void command(JOIN, { id }, 'joinMatch') }, 'Join this match'),
      ...(free.length > 1
        ? free.map((seat) => {
            const partner = partnerOf(seat);
            return h(
              'button',
              { type: 'button', class: 'secondary', 'data-key': `join-${seat}`, onclick: () => void command(JOIN, { id, seat }, 'joinMatch') },
              `Sit in seat ${seat + 1}${partner ? ` (partner of ${partner})` : ''}`,
            );
          })
        : []),
    ];
  }

  function actions(): HTMLElement {
    const seated = match.mySeat !== null;
    const items: (HTMLElement | null)[] = [
      ...(match.status === 'WAITING' && !seated && session() ? joinActions() : []),
      match.status === 'WAITING' && !seated && !session() ? h('a', { href: '#/' }, 'Register to join') : null,
      match.status === 'WAITING' && seated
        ? h('button', { type: 'button', class: 'secondary', 'data-key': 'leave', onclick: () => void command(LEAVE, { id }, 'leaveMatch') }, 'Leave')
        : null,
      match.status === 'WAITING' && match.inviteCode
        ? h(
            'span',
            { class: 'offer', 'data-testid': 'invite-code' },
            `${match.private ? 'Private match: ' : ''}invite code `,
            h('strong', {}, match.inviteCode),
            ' (give it to the players you want: "Join with an invite code" on their Matches page)',
          )
        : null,
      match.status === 'IN_PROGRESS' && seated
        ? h(
            'button',
            {
              type: 'button',
              class: 'danger',
              'data-key': 'resign',
              onclick: () => confirm('Resign this match?') && void command(RESIGN, { id }, 'resignMatch'),
            },
            'Resign',
          )
        : null,
      ...rematchActions(),
      match.status === 'FINISHED' ? h('a', { href: `#/replay/${id}`, 'data-key': 'replay' }, 'Replay move by move') : null,
      match.status === 'FINISHED' ? h('a', { href: `/matches/${id}/record`, 'data-key': 'record' }, 'Match record (JSON)') : null,
      h('a', { href: `/matches/${id}/board.svg`, 'data-key': 'board-svg' }, 'Board picture (SVG)'),
    ];
    return h('div', { class: 'actions' }, ...items);
  }

  /** The latest round that ended: how, what each side made of it, and the hands it left. */
  function roundResultSection(): HTMLElement | null {
    const last = results.at(-1);
    if (!last?.result) return null;
    return h(
      'section',
      { class: 'card round-result', 'aria-labelledby': 'round-result-title', 'data-testid': 'round-result' },
      h('h2', { id: 'round-result-title' }, `Round ${last.number} result`),
      h('p', {}, roundEndText(match, last)),
      h('ul', {}, ...roundSideLines(match, last).map((line) => h('li', {}, line))),
      last.result.hands.length ? h('p', {}, 'Tiles left: ', revealedHandLines(match, last).join('; '), '.') : null,
    );
  }

  function logSection(): HTMLElement {
    const moves = match.currentRound?.moves ?? [];
    return h(
      'section',
      { class: 'card log', 'aria-labelledby': 'log-title' },
      h('h2', { id: 'log-title' }, `Moves this round`),
      moves.length ? h('ol', {}, ...moves.slice(-12).map((m) => h('li', { value: m.seq }, moveText(match, m)))) : h('p', {}, 'No move yet.'),
      results.length
        ? h(
            'div',
            {},
            h('h3', {}, 'Round results'),
            h(
              'ul',
              {},
              ...results.map((r) =>
                h('li', {}, `Round ${r.number}: ${r.result?.end.toLowerCase().replace('_', ' ')}, bonus ${r.result?.awarded.join(' – ')}`),
              ),
            ),
          )
        : null,
    );
  }

  function draw(): void {
    if (left) return;
    const active = document.activeElement as HTMLElement | null;
    const focused = active?.getAttribute('data-key');
    // Focus stays with the match while the player is on it: when a redraw removed the focused
    // control (their tile was played), focus fell to <body>, and the next turn gets it back.
    keepFocus = root.contains(active) || (keepFocus && (active === null || active === document.body));
    root.setAttribute('data-status', match.status);
    root.setAttribute('data-version', String(match.version));
    root.setAttribute('data-my-turn', String(isMyTurn(match)));
    root.replaceChildren(
      h('h1', { tabindex: -1, 'data-key': 'title' }, match.mySeat === null ? 'Watching a match' : 'Your match'),
      // Not a live region: it is rebuilt with every redraw, and what is news is announced (ui.announce).
      h('p', { class: 'status', 'data-testid': 'status' }, statusText(match)),
      clockLine() ?? '',
      actions(),
      h(
        'div',
        { class: 'match-grid' },
        h('div', {}, boardSection(), handSection()),
        h('div', {}, roundResultSection(), scoresSection(), logSection()),
      ),
    );
    // Keep keyboard play going across redraws: the same control, else the hand, from where one
    // Tab reaches the first playable tile, else (watching, or waiting for the start) the title.
    if (keepFocus) {
      const again =
        (focused && root.querySelector<HTMLElement>(`[data-key="${focused}"]:not([disabled])`)) ||
        root.querySelector<HTMLElement>('#hand-title') ||
        root.querySelector<HTMLElement>('h1');
      again?.focus();
    }
    document.title = isMyTurn(match) ? `Your turn · ${BASE_TITLE}` : BASE_TITLE;
  }

  /** Who must move by when, in a match with a clock; kept current by the ticker below. */
  function clockLine(): HTMLElement | null {
    const now = Date.now();
    const text = deadlineText(match, now);
    return text ? h('p', { class: deadlineNear(match, now) ? 'deadline near' : 'deadline', 'data-testid': 'deadline' }, text) : null;
  }
  const ticker = setInterval(() => {
    const now = Date.now();
    const line = root.querySelector('.deadline');
    const text = deadlineText(match, now);
    if (line && text && line.textContent !== text) line.textContent = text;
    line?.classList.toggle('near', deadlineNear(match, now));
    const bank = match.turn === null ? null : root.querySelector(`.bank[data-seat="${match.turn}"]`);
    const left = match.turn === null ? null : bankText(match, match.turn, now);
    if (bank && left && bank.textContent !== left) bank.textContent = left;
  }, 1000);

  /** What a pushed event tells a player who cannot see the page change (the finish: loadResults). */
  const eventWords = (m: Match, type: string, seat: number | null, newMoves: Move[]): string | null => {
    if (type === 'TILE_PLAYED' || type === 'TILE_DRAWN' || type === 'TURN_PASSED') {
      if (newMoves.length > MOVES_READ_OUT) return `${newMoves.length} moves; the last: ${moveText(m, newMoves[newMoves.length - 1])}`;
      return newMoves.length ? newMoves.map((x) => moveText(m, x)).join('. ') : null;
    }
    if (type === 'MATCH_STARTED') return 'The match has started';
    if (type === 'PLAYER_JOINED' && seat !== null && seat !== m.mySeat) return `${seatName(m, seat)} joined`;
    if (type === 'TIMED_OUT' && seat !== null) return `${seatName(m, seat)} ran out of time`;
    if (type === 'DEADLINE_SOON' && seat !== null && seat === m.mySeat && m.deadline)
      return `Your time is nearly up: ${durationText(Date.parse(m.deadline) - Date.now())} left`;
    return null;
  };

  draw();
  void loadResults();
  followOwnMatch();
  let lastMoves = match.currentRound?.moves.length ?? 0;
  let lastRound = match.currentRound?.number ?? 0;
  const stop = followMatch(id, startSeq, {
    match: (m, type, seat) => {
      const turnArrived = update(m);
      const moves = m.currentRound?.moves ?? [];
      const round = m.currentRound?.number ?? 0;
      const newMoves = round === lastRound ? moves.slice(lastMoves) : [];
      const said = [eventWords(m, type, seat, newMoves), turnArrived ? 'Your turn' : null].filter((x) => x !== null);
      if (said.length) ui.announce(`${said.join('. ')}.`);
      lastMoves = moves.length;
      lastRound = round;
    },
    reconnected: () => {
      ui.clearConnectionError();
      void refetch().catch(() => {});
    },
    error: (message) => ui.showError(message),
  });
  return {
    element: root,
    leave: () => {
      left = true;
      clearInterval(ticker);
      document.title = BASE_TITLE;
      stop();
      stopMine?.();
      stopMine = null;
    },
  };
}
