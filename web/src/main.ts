import { errorText, onConnection, saveSession, session } from './api.js';
import { h } from './dom.js';
import { homePage } from './home.js';
import { matchPage } from './match-page.js';
import { replayPage } from './replay-page.js';
import { createUi } from './ui.js';

/** Hash routes: #/ (home), #/match/<id> (play or watch), #/replay/<id>. */
let leave: (() => void) | null = null;
let generation = 0;

function renderWho(): void {
  const who = document.getElementById('who') as HTMLElement;
  const s = session();
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
                saveSession(null);
                void render(); // render shows its own errors on the page
              },
            },
            'Sign out',
          ),
        ]
      : ['Not signed in']),
  );
}

async function render(): Promise<void> {
  const mine = ++generation;
  leave?.();
  leave = null;
  ui.showError(null);
  renderWho();
  const app = document.getElementById('app') as HTMLElement;
  const [, route, id] = location.hash.split('/');
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
  } catch (e) {
    if (mine !== generation) return;
    app.replaceChildren(h('p', {}, h('a', { href: '#/' }, 'Back to matches')));
    ui.showError(errorText(e));
  }
}

const ui = createUi(() => void render());

onConnection((state) => {
  const el = document.getElementById('connection') as HTMLElement;
  el.textContent = state === 'reconnecting' ? 'Connection lost: reconnecting…' : state === 'connected' ? 'Live' : '';
  el.className = `connection ${state}`;
});

window.addEventListener('hashchange', () => void render());
void render();
