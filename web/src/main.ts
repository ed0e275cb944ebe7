import {
  connectionStatus,
  errorText,
  isConnectionError,
  onConnection,
  onSessionChangedElsewhere,
  onTokenProblem,
  saveSession,
  ServerError,
  session,
  type ConnectionStatus,
} from './api.js';
import { h } from './dom.js';
import { homePage } from './home.js';
import { matchPage } from './match-page.js';
import { replayPage } from './replay-page.js';
import { createUi } from './ui.js';

/** Hash routes: #/ (home), #/match/<id> (play or watch), #/replay/<id>. */
let leave: (() => void) | null = null;
let generation = 0;
/** Pages shown so far: the first is where the browser put focus itself. */
let pagesShown = 0;

/** The player the header shows: another tab's change of token is told apart from a change of player. */
let shownPlayer: string | null = null;

function renderWho(): void {
  const who = document.getElementById('who') as HTMLElement;
  const s = session();
  shownPlayer = s?.player.id ?? null;
  who.replaceChildren(
    ...(s
      ? [
          `Signed in as ${s.player.name} `,
          h(
            'button',
            {
              type: 'button',
              class: 'link',
              onclick: () => {
                // The server showed the token once; this browser may hold its only copy.
                const sure = confirm(
                  `Sign out? This browser forgets your token. To play as ${s.player.name} again, you need a copy of it (Matches, “Your token”).`,
                );
                if (!sure) return;
                saveSession(null);
                ui.notice(null);
                void render(); // render shows its own errors on the page
              },
            },
            'Sign out',
          ),
        ]
      : ['Not signed in']),
  );
}

/** A route's part as typed (a link or the address bar may percent-encode it), or as it is when it does not decode. */
function decoded(part: string | undefined): string | undefined {
  try {
    return part === undefined ? undefined : decodeURIComponent(part);
  } catch {
    return part;
  }
}

async function render(): Promise<void> {
  const mine = ++generation;
  leave?.();
  leave = null;
  ui.showError(null);
  if (ui.noticeWaitsForSignIn() && session()) ui.notice(null);
  renderWho();
  const app = document.getElementById('app') as HTMLElement;
  const [, route, rawId] = location.hash.split('/');
  const id = decoded(rawId);
  try {
    let page: HTMLElement;
    if (route === 'match' && id) {
      const p = await matchPage(id, ui);
      if (mine !== generation) return p.leave();
      leave = p.leave;
      page = p.element;
    } else if (route === 'replay' && id) page = await replayPage(id, ui);
    else page = await homePage(ui);
    if (mine !== generation) return;
    app.replaceChildren(page);
    // A new page (a link, a form that led here, a sign-in) starts at its title, as a page load
    // does: the control that had focus is gone, and focus would fall to <body>.
    if (pagesShown++ > 0) page.querySelector<HTMLElement>('h1')?.focus();
  } catch (e) {
    if (mine !== generation) return;
    renderWho(); // the page may have found the saved token refused
    // An id that names no match is not worth a retry; a server or network that failed is.
    const final = e instanceof ServerError && (e.code === 'NOT_FOUND' || e.code === 'BAD_USER_INPUT');
    app.replaceChildren(
      h(
        'p',
        { class: 'actions' },
        final ? null : h('button', { type: 'button', onclick: () => void render() }, 'Try again'),
        location.hash && location.hash !== '#/' ? h('a', { href: '#/' }, 'Back to matches') : null,
      ),
    );
    ui.showError(errorText(e), isConnectionError(e) ? 'connection' : undefined);
  }
}

const ui = createUi(() => void render());

function showConnection({ state, detail }: ConnectionStatus): void {
  const el = document.getElementById('connection') as HTMLElement;
  const text =
    state === 'reconnecting'
      ? 'Connection lost: reconnecting…'
      : state === 'offline'
        ? 'Offline: reconnecting when the network is back…'
        : state === 'stopped'
          ? `Live updates stopped: ${detail ?? 'the server closed the connection'}`
          : state === 'connected'
            ? 'Live'
            : '';
  // The indicator is a live region: the same words written again (a retry after a retry) are not news.
  if (el.textContent !== text) el.textContent = text;
  el.className = `connection ${state}`;
  if (state === 'connected') ui.clearConnectionError();
}
onConnection(showConnection);
showConnection(connectionStatus());

onTokenProblem(({ forgotten, reason }) => {
  if (forgotten) {
    ui.notice(`Your token is no longer valid (${reason}), so this browser has forgotten it. Sign in with another token, or register again.`, true);
    void render();
  } else {
    // The socket refused it, but the server could not be asked about it over HTTP: keep it.
    ui.notice(`Live updates stopped: the server refused your token (${reason}). Reload the page to try again.`);
  }
});

/**
 * The IDE link, shown only where the server serves the IDE: it is off in production
 * (GRAPHQL_IDE), where the link led to a JSON refusal.
 */
async function showIdeLinkIfServed(): Promise<void> {
  try {
    const res = await fetch('/web-client.json');
    const settings = res.ok ? ((await res.json()) as { graphqlIde?: unknown }) : {};
    (document.getElementById('ide-link') as HTMLElement).hidden = settings.graphqlIde !== true;
  } catch {
    // Unreachable now: the link stays hidden.
  }
}

onSessionChangedElsewhere(() => {
  const now = session();
  if (!now) ui.notice('This browser no longer holds your token: another tab signed out, or found it no longer valid.');
  else if (now.player.id === shownPlayer) ui.notice('Another tab replaced your token: this one uses the new one.');
  else ui.notice(`Another tab signed in as ${now.player.name}: this one plays as them too now.`);
  void render();
});

window.addEventListener('hashchange', () => void render());
void render();
void showIdeLinkIfServed();
