import { gql, saveSession, ServerError, session } from './api.js';
import { h } from './dom.js';
import { drawProblems, newClientSeed, type CreatedMatch, type NextMatch } from './fair-deal-check.js';
import { CREATE_MATCH, JOIN_BY_INVITE, ME, MY_MATCHES, NEXT_MATCH, OPEN_MATCHES, REGISTER, TO_MOVE } from './operations.js';
import { seatName, sideName } from './match-view.js';
import type { MatchListItem } from './types.js';
import type { Ui } from './ui.js';

function names(m: MatchListItem): string {
  // Named as the match page names them ("Bot 2"), without its "(you)".
  const named = { seats: m.seats, mySeat: null };
  return m.seats.map((s) => (s.player || s.isBot ? seatName(named, s.index) : 'open seat')).join(', ');
}

/** Who won a finished match, in the list: the winning side's names. */
function winnerText(m: MatchListItem): string {
  if (!m.winner) return '';
  if (m.winner.seats.includes(m.mySeat ?? -1)) return ' · you won';
  return ` · ${sideName({ seats: m.seats, mySeat: null }, m.winner.seats)} won`;
}

function scores(m: MatchListItem): string {
  return m.teams.map((t) => t.score).join(' – ');
}

function matchRow(m: MatchListItem, ui: Ui): HTMLElement {
  const yourMove = m.status === 'IN_PROGRESS' && m.mySeat !== null && m.turn === m.mySeat;
  return h(
    'li',
    { class: 'match-row' },
    h('a', { href: `#/match/${m.id}` }, `${names(m)}`),
    ` · ${m.status.toLowerCase().replace('_', ' ')}`,
    m.status !== 'WAITING' ? ` · ${scores(m)}` : '',
    m.status === 'FINISHED' ? winnerText(m) : '',
    yourMove ? h('strong', { class: 'badge' }, 'your move') : '',
    m.status === 'FINISHED' ? h('a', { href: `#/replay/${m.id}`, class: 'secondary' }, 'replay') : '',
    m.status === 'WAITING' && m.mySeat === null && session()
      ? h('button', { type: 'button', onclick: () => ui.go(`#/match/${m.id}`) }, 'Open to join')
      : '',
  );
}

/**
 * Runs the form's request on submit, one at a time: a second click while it runs would register
 * a second player (the first token lost) or create a second match.
 */
function onSubmit(form: HTMLFormElement, ui: Ui, action: () => Promise<void>): void {
  let pending = false;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (pending) return;
    pending = true;
    form.setAttribute('aria-busy', 'true');
    void ui.run(action).finally(() => {
      pending = false;
      form.removeAttribute('aria-busy');
    });
  });
}

function registerForm(ui: Ui): HTMLElement {
  const input = h('input', { id: 'player-name', name: 'name', required: true, maxlength: 40, autocomplete: 'nickname' });
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'register-title' },
    h('h2', { id: 'register-title' }, 'Register'),
    h('p', {}, 'Pick a name; this browser keeps your token.'),
    h('label', { for: 'player-name' }, 'Your name'),
    input,
    h('button', { type: 'submit' }, 'Register'),
  );
  onSubmit(form, ui, async () => {
    const r = await gql<{ registerPlayer: { token: string; player: { id: string; name: string } } }>(REGISTER, { name: input.value.trim() });
    saveSession({ token: r.registerPlayer.token, player: r.registerPlayer.player });
    ui.refresh();
  });
  return form;
}

/** Takes the token of an existing player (from another browser), checked with `me` before it is kept. */
function signInForm(ui: Ui): HTMLElement {
  const input = h('input', {
    id: 'sign-in-token',
    name: 'token',
    type: 'password',
    required: true,
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'sign-in-help',
  });
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'sign-in-title' },
    h('h2', { id: 'sign-in-title' }, 'Sign in with a token'),
    h('p', { id: 'sign-in-help' }, 'Already registered in another browser? Paste the token shown there under “Your token”.'),
    h('label', { for: 'sign-in-token' }, 'Your token'),
    input,
    h('button', { type: 'submit' }, 'Sign in'),
  );
  onSubmit(form, ui, async () => {
    // Anything pasted around it (a "Bearer ", spaces, a zero-width space, the quotes of a JSON
    // string) is not part of a token.
    const token = input.value
      .replace(/^\s*Bearer\s+/i, '')
      .replace(/[^\x21-\x7e]/g, '')
      .replace(/^["'`]+|["'`]+$/g, '');
    const r = await gql<{ me: { id: string; name: string } | null }>(ME, {}, { token }).catch((err: unknown) => {
      if (err instanceof ServerError && err.code === 'UNAUTHENTICATED') throw new Error(`That token is not valid (${err.message}).`);
      throw err;
    });
    if (!r.me) throw new Error('That token is not valid.');
    saveSession({ token, player: r.me });
    ui.refresh();
  });
  return form;
}

/**
 * The saved token, shown only on request: the server shows a token once, at registration, so this
 * browser may hold the only copy; it is what another browser needs to sign in as this player.
 */
function tokenCard(token: string): HTMLElement {
  const box = h('div', { id: 'token-box', hidden: true });
  const status = h('span', { role: 'status' });
  const field = h('input', { id: 'my-token', type: 'text', readonly: true, spellcheck: 'false', autocomplete: 'off' });
  const toggle = h('button', { type: 'button', class: 'secondary', 'aria-expanded': 'false', 'aria-controls': 'token-box' }, 'Show my token');
  toggle.addEventListener('click', () => {
    const show = box.hidden;
    box.hidden = !show;
    toggle.setAttribute('aria-expanded', String(show));
    toggle.textContent = show ? 'Hide my token' : 'Show my token';
    status.textContent = '';
    field.value = show ? token : ''; // in the page only while shown
    if (show) field.select();
  });
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(token);
    } catch {
      field.select(); // no clipboard access (an insecure origin): the selected text copies with Ctrl+C
      status.textContent = 'Select the token and copy it.';
      return;
    }
    status.textContent = 'Copied.';
  };
  box.append(h('label', { for: 'my-token' }, 'Your token'), field, h('button', { type: 'button', onclick: () => void copy() }, 'Copy'), status);
  return h(
    'section',
    { class: 'card inline', 'aria-labelledby': 'token-title' },
    h('h2', { id: 'token-title' }, 'Your token'),
    h(
      'p',
      {},
      'The server showed it once, at registration; this browser keeps it. To play as you in another browser, sign in there with it. Anyone who has it can play as you: keep it private.',
    ),
    toggle,
    box,
  );
}

const RULES: [string, string, string[] | 'number' | 'boolean', string | number | boolean][] = [
  ['targetScore', 'Target score', 'number', 250],
  ['handSize', 'Hand size', 'number', 7],
  ['spinner', 'Spinner', ['FIRST_DOUBLE', 'NONE'], 'FIRST_DOUBLE'],
  ['spinnerEndsCount', 'Uncovered spinner ends count', 'boolean', false],
  ['voluntaryDraw', 'Draw while holding a playable tile', 'boolean', false],
  ['reserve', 'Tiles never drawn (reserve)', 'number', 0],
  ['firstLeader', 'First leader', ['DRAW', 'RANDOM'], 'DRAW'],
  ['leadRule', 'Lead rule', ['ANY', 'HIGHEST_DOUBLE'], 'ANY'],
  ['dominoRounding', 'Domino bonus rounding', ['AGGREGATE', 'PER_HAND'], 'AGGREGATE'],
  ['blockedBonus', 'Blocked round bonus', ['OPPONENTS_TOTAL', 'DIFFERENCE'], 'OPPONENTS_TOTAL'],
  ['playOut', 'Play the round out before a winner', 'boolean', false],
  ['scoring', 'Scoring', ['FIVES', 'FIVES_AND_THREES', 'THREES_AND_FIVES'], 'FIVES'],
];

/** Every BotStrategy of the schema, weakest first, with what it does (README, "Bots"). */
const STRATEGIES: [string, string, string][] = [
  ['RANDOM', 'Random', 'Plays any legal move: the easiest opponent.'],
  ['GREEDY', 'Greedy', 'Plays the move that scores most now, else sheds its heaviest tile (the default).'],
  ['DEFENSIVE', 'Defensive', 'Greedy with a look ahead: denies the next player scoring answers.'],
  ['EXPERT', 'Expert', 'Searches many possible deals and plays each move out: the strongest.'],
];

/** A clock as createMatch takes it (null: none). */
type ClockChoice =
  { kind: 'PER_MOVE'; moveSeconds: number } | { kind: 'BANK'; bankSeconds: number; incrementSeconds: number; maxBankSeconds: number } | null;

const DAY = 86_400;
/**
 * The clocks this page offers (createMatch takes any within its bounds): a time for each move, or
 * a bank for the whole match that each move adds to (Fischer), capped so a slow match cannot
 * hoard weeks. Labels are the option texts; keys name them in the select's values.
 */
const CLOCKS: { group: string | null; options: [key: string, label: string, clock: ClockChoice][] }[] = [
  { group: null, options: [['none', 'No clock', null]] },
  {
    group: 'Time per move',
    options: [
      ['move-5m', '5 minutes', { kind: 'PER_MOVE', moveSeconds: 300 }],
      ['move-1h', '1 hour', { kind: 'PER_MOVE', moveSeconds: 3600 }],
      ['move-1d', '1 day', { kind: 'PER_MOVE', moveSeconds: DAY }],
      ['move-3d', '3 days', { kind: 'PER_MOVE', moveSeconds: 3 * DAY }],
    ],
  },
  {
    group: 'Time bank for the match, plus some per move',
    options: [
      ['bank-15m', '15 minutes + 10 seconds a move', { kind: 'BANK', bankSeconds: 900, incrementSeconds: 10, maxBankSeconds: 900 }],
      ['bank-1h', '1 hour + 1 minute a move', { kind: 'BANK', bankSeconds: 3600, incrementSeconds: 60, maxBankSeconds: 3600 }],
      ['bank-3d', '3 days + 1 day a move (at most 7 days)', { kind: 'BANK', bankSeconds: 3 * DAY, incrementSeconds: DAY, maxBankSeconds: 7 * DAY }],
    ],
  },
];
const clockOf = (key: string): ClockChoice => CLOCKS.flatMap((g) => g.options).find(([k]) => k === key)?.[2] ?? null;

/** What happens when a player's time runs out: the server's two policies, in words. */
const ON_TIMEOUT: [value: 'BOT_PLAYS' | 'FORFEIT', label: string, help: string][] = [
  ['BOT_PLAYS', 'A bot moves for them', 'When a player runs out of time, a bot moves for them; three times in a row loses the match.'],
  ['FORFEIT', 'Their side loses', 'When a player runs out of time, their side loses the match at once.'],
];

function field(id: string, label: string, control: HTMLElement): HTMLElement {
  control.id = id;
  return h(
    'div',
    { class: control instanceof HTMLInputElement && control.type === 'checkbox' ? 'field check' : 'field' },
    h('label', { for: id }, label),
    control,
  );
}

/** createMatch's clock input: the chosen clock with the chosen policy (BOT_PLAYS is the server's default). */
function clockInput(choice: ClockChoice, onTimeout: string): Record<string, string | number> | null {
  if (!choice) return null;
  return onTimeout === 'FORFEIT' ? { ...choice, onTimeout } : choice;
}

function createForm(ui: Ui): HTMLElement {
  const seats = h('select', {}, ...[2, 3, 4].map((n) => h('option', { value: n }, String(n))));
  // Seat 1 is the creator's; any other seat may be a bot's (two partners against two bots: 2 and 4).
  const botSeats = [2, 3, 4].map((n) => ({ seat: n, box: h('input', { type: 'checkbox', disabled: n > 2 }) }));
  const partnerships = h('input', { type: 'checkbox', disabled: true });
  const privateMatch = h('input', { type: 'checkbox' });
  // The rules' default with 4 players is two partnerships (R2); fewer seats play alone.
  seats.addEventListener('change', () => {
    partnerships.disabled = seats.value !== '4';
    partnerships.checked = seats.value === '4';
    for (const { seat, box } of botSeats) {
      box.disabled = seat > Number(seats.value);
      if (box.disabled) box.checked = false;
    }
  });
  const strategy = h(
    'select',
    { 'aria-describedby': 'create-strategy-help' },
    ...STRATEGIES.map(([value, label]) => h('option', { value, selected: value === 'GREEDY' }, label)),
  );
  const strategyHelp = h('p', { id: 'create-strategy-help', class: 'help' });
  const clock = h(
    'select',
    {},
    ...CLOCKS.map(({ group, options }) => {
      const items = options.map(([key, label]) => h('option', { value: key, selected: key === 'none' }, label));
      return group ? h('optgroup', { label: group }, ...items) : items;
    }),
  );
  const onTimeout = h(
    'select',
    { 'aria-describedby': 'create-timeout-help', disabled: true },
    ...ON_TIMEOUT.map(([value, label]) => h('option', { value }, label)),
  );
  const timeoutHelp = h('p', { id: 'create-timeout-help', class: 'help' });
  const describe = (): void => {
    strategyHelp.textContent = STRATEGIES.find(([v]) => v === strategy.value)?.[2] ?? '';
    // Without a clock nobody runs out of time: the policy is moot, and says so.
    onTimeout.disabled = clock.value === 'none';
    timeoutHelp.textContent = onTimeout.disabled
      ? 'No clock: players take as long as they like.'
      : (ON_TIMEOUT.find(([v]) => v === onTimeout.value)?.[2] ?? '');
  };
  for (const control of [strategy, clock, onTimeout]) control.addEventListener('change', describe);
  describe();
  const rules = RULES.map(([key, label, kind, value]) => {
    const control =
      kind === 'number'
        ? h('input', { type: 'number', min: 0, value: String(value) })
        : kind === 'boolean'
          ? h('input', { type: 'checkbox' })
          : h('select', {}, ...kind.map((v) => h('option', { value: v, selected: v === value }, v.toLowerCase().replace(/_/g, ' '))));
    return { key, kind, control: control, field: field(`rule-${key}`, label, control) };
  });
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'create-title' },
    h('h2', { id: 'create-title' }, 'New match'),
    h(
      'div',
      { class: 'grid' },
      field('create-seats', 'Seats', seats),
      h(
        'fieldset',
        { class: 'field bot-seats' },
        h('legend', {}, 'Bots play'),
        ...botSeats.map(({ seat, box }) => field(`create-bot-seat-${seat}`, `Seat ${seat}`, box)),
      ),
      h('div', {}, field('create-strategy', 'Bot strategy', strategy), strategyHelp),
      field('create-clock', 'Clock', clock),
      h('div', {}, field('create-timeout', 'When time runs out', onTimeout), timeoutHelp),
      field('create-partnerships', 'Partnerships (4 seats)', partnerships),
      field('create-private', 'Private: joined only with its invite code', privateMatch),
    ),
    h('details', {}, h('summary', {}, 'Rule variants'), h('div', { class: 'grid' }, ...rules.map((r) => r.field))),
    h('button', { type: 'submit' }, 'Create match'),
  );
  onSubmit(form, ui, async () => {
    const ruleInput: Record<string, string | number | boolean> = {};
    for (const r of rules) {
      const c = r.control;
      ruleInput[r.key] = r.kind === 'number' ? Number(c.value) : r.kind === 'boolean' ? (c as HTMLInputElement).checked : c.value;
    }
    // The API counts seats from 0; this page, like the match page, from 1.
    const chosen = botSeats.filter(({ box }) => box.checked).map(({ seat }) => seat - 1);
    const input = {
      seats: Number(seats.value),
      botSeats: chosen,
      partnerships: partnerships.checked,
      private: privateMatch.checked,
      botStrategy: strategy.value,
      rules: ruleInput,
      clock: clockInput(clockOf(clock.value), onTimeout.value),
    };
    // The match's id and deal are announced before this page's seed is sent, then checked.
    const announced = (await gql<{ me: { nextMatch: NextMatch | null } | null }>(NEXT_MATCH)).me?.nextMatch ?? null;
    const r = await gql<{ createMatch: CreatedMatch }>(CREATE_MATCH, { input: { ...input, clientSeed: newClientSeed() } });
    const problems = announced ? drawProblems(announced, r.createMatch) : [];
    ui.go(`#/match/${r.createMatch.id}`);
    if (problems.length > 0) ui.notice(`This match's deal cannot be vouched for: ${problems.join('; ')} (see the server's docs/fair-deals.md).`);
  });
  return form;
}

/** A card with one field and its button, as "Join with an invite code" and "Watch a match" are. */
function oneFieldForm(id: string, title: string, label: string, button: string, input: HTMLInputElement): HTMLFormElement {
  input.id = id;
  return h(
    'form',
    { class: 'card inline', 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, title),
    h('label', { for: id }, label),
    input,
    h('button', { type: 'submit' }, button),
  );
}

/** The code a player of a match passed on (shown on its page); case, spaces and dashes do not matter. */
function inviteForm(ui: Ui): HTMLElement {
  const input = h('input', { required: true, autocomplete: 'off' });
  const form = oneFieldForm('invite-code', 'Join with an invite code', 'Invite code', 'Join', input);
  onSubmit(form, ui, async () => {
    const r = await gql<{ joinMatchByInvite: { id: string } }>(JOIN_BY_INVITE, { code: input.value });
    ui.go(`#/match/${r.joinMatchByInvite.id}`);
  });
  return form;
}

const MATCH_ID = /[0-9A-Fa-f]{8}(-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}/;

function watchForm(ui: Ui): HTMLElement {
  // A match id is a UUID, alone or in a match page's address: the browser says so when there is
  // none, before anything is asked of the server.
  const input = h('input', {
    required: true,
    placeholder: 'match id or address',
    pattern: `.*${MATCH_ID.source}.*`,
    title: 'A match id (32 hexadecimal digits in groups of 8-4-4-4-12), or the address of a match page',
  });
  const form = oneFieldForm('watch-id', 'Watch a match', 'Match id', 'Watch', input);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const id = MATCH_ID.exec(input.value)?.[0];
    if (id) ui.go(`#/match/${id.toLowerCase()}`);
  });
  return form;
}

function list(title: string, id: string, items: MatchListItem[], ui: Ui, empty: string): HTMLElement {
  return h(
    'section',
    { class: 'card', 'aria-labelledby': id },
    h('h2', { id }, title),
    items.length ? h('ul', { class: 'matches' }, ...items.map((m) => matchRow(m, ui))) : h('p', {}, empty),
  );
}

export async function homePage(ui: Ui): Promise<HTMLElement> {
  const page = h('div', { class: 'home' });
  let s = session();
  if (s) {
    // Only the server's word that the token is not valid (401 UNAUTHENTICATED) forgets it, and
    // that happens in gql (api.ts), which tells the page. Any other failure (no network, a busy
    // or failing server) is thrown as it is: the token is kept, and the page offers a retry.
    try {
      const me = await gql<{ me: { id: string; name: string } | null }>(ME);
      if (me.me && (me.me.name !== s.player.name || me.me.id !== s.player.id)) {
        saveSession({ token: s.token, player: me.me });
      }
    } catch (e) {
      if (!(e instanceof ServerError && e.code === 'UNAUTHENTICATED')) throw e;
    }
    s = session();
  }
  type Page = { matches: { edges: { node: MatchListItem }[] } };
  const open = await gql<Page>(OPEN_MATCHES);
  if (!s) {
    page.append(
      h('h1', { tabindex: -1 }, 'Straight Dominoes'),
      registerForm(ui),
      signInForm(ui),
      watchForm(ui),
      list(
        'Open matches',
        'open-title',
        open.matches.edges.map((e) => e.node),
        ui,
        'No match is waiting for players.',
      ),
    );
    return page;
  }
  const [mine, toMove] = await Promise.all([
    gql<Page>(MY_MATCHES, { playerId: s.player.id }),
    gql<{ toMove: { totalCount: number; edges: { node: MatchListItem }[] } }>(TO_MOVE),
  ]);
  const waiting = toMove.toMove.edges.map((e) => e.node);
  const more = toMove.toMove.totalCount - waiting.length;
  const toMoveList = list('Your move', 'to-move-title', waiting, ui, 'Nothing waits for you.');
  if (more > 0) toMoveList.append(h('p', {}, `And ${more} more.`));
  page.append(
    h('h1', { tabindex: -1 }, 'Matches'),
    toMoveList,
    createForm(ui),
    inviteForm(ui),
    list(
      'My matches',
      'mine-title',
      mine.matches.edges.map((e) => e.node),
      ui,
      'No matches yet: create one.',
    ),
    list(
      'Open matches',
      'open-title',
      open.matches.edges.map((e) => e.node).filter((m) => m.mySeat === null),
      ui,
      'No match is waiting for players.',
    ),
    watchForm(ui),
    tokenCard(s.token),
  );
  return page;
}
