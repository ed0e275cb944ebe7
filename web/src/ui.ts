import { errorText, isConnectionError } from './api.js';
import { h } from './dom.js';

/** What every page may ask of the shell: navigation, a refresh, and errors shown in words. */
export interface Ui {
  go(hash: string): void;
  refresh(): void;
  /** `connection`: the message is about reaching the server, and goes once the socket is back. */
  showError(message: string | null, kind?: 'connection'): void;
  /** Takes down the error banner if what it shows is a connection problem (the connection is back). */
  clearConnectionError(): void;
  announce(message: string): void;
  /**
   * A message that outlives re-rendering and actions (the banner is cleared by every page and
   * action), until dismissed; `untilSignIn`: or until a token is saved.
   */
  notice(message: string | null, untilSignIn?: boolean): void;
  /** Whether the notice shown waits for a sign-in to go. */
  noticeWaitsForSignIn(): boolean;
  /** Runs an action, showing its failure (if any) in the error banner. */
  run(action: () => Promise<void>): Promise<boolean>;
}

export function createUi(render: () => void): Ui {
  const banner = document.getElementById('error') as HTMLElement;
  let bannerKind: 'connection' | undefined;
  let noticeUntilSignIn = false;
  const ui: Ui = {
    go(hash) {
      if (location.hash === hash) render();
      else location.hash = hash;
    },
    refresh: render,
    showError(message, kind) {
      bannerKind = message === null ? undefined : kind;
      banner.hidden = message === null;
      banner.textContent = message ?? '';
    },
    clearConnectionError() {
      if (bannerKind === 'connection') ui.showError(null);
    },
    notice(message, untilSignIn = false) {
      noticeUntilSignIn = message !== null && untilSignIn;
      const el = document.getElementById('notice') as HTMLElement;
      el.hidden = message === null;
      el.replaceChildren(
        ...(message === null
          ? []
          : [h('span', {}, message), ' ', h('button', { type: 'button', class: 'secondary', onclick: () => ui.notice(null) }, 'Dismiss')]),
      );
    },
    noticeWaitsForSignIn: () => noticeUntilSignIn,
    announce(message) {
      const live = document.getElementById('announcer');
      if (live) live.textContent = message;
    },
    run: (action) => runShowingErrors(ui, action),
  };
  return ui;
}

async function runShowingErrors(ui: Ui, action: () => Promise<void>): Promise<boolean> {
  try {
    ui.showError(null);
    await action();
    return true;
  } catch (e) {
    ui.showError(errorText(e), isConnectionError(e) ? 'connection' : undefined);
    return false;
  }
}

/**
 * The same Ui for one page, silent once `shown()` is false: an answer that arrives after the
 * player went to another page (a move's, a round's results) neither navigates, nor speaks, nor
 * puts its error on the page that is shown now.
 */
export function whileShown(ui: Ui, shown: () => boolean): Ui {
  const scoped: Ui = {
    ...ui,
    go: (hash) => void (shown() && ui.go(hash)),
    showError: (message, kind) => void (shown() && ui.showError(message, kind)),
    clearConnectionError: () => void (shown() && ui.clearConnectionError()),
    announce: (message) => void (shown() && ui.announce(message)),
    run: (action) => runShowingErrors(scoped, action),
  };
  return scoped;
}
