import { errorText } from './api.js';

/** What every page may ask of the shell: navigation, a refresh, and errors shown in words. */
export interface Ui {
  go(hash: string): void;
  refresh(): void;
  showError(message: string | null): void;
  announce(message: string): void;
  /** Runs an action, showing its failure (if any) in the error banner. */
  run(action: () => Promise<void>): Promise<boolean>;
}

export function createUi(render: () => void): Ui {
  const banner = document.getElementById('error') as HTMLElement;
  const ui: Ui = {
    go(hash) {
      if (location.hash === hash) render();
      else location.hash = hash;
    },
    refresh: render,
    showError(message) {
      banner.hidden = message === null;
      banner.textContent = message ?? '';
    },
    announce(message) {
      const live = document.getElementById('announcer');
      if (live) live.textContent = message;
    },
    async run(action) {
      try {
        ui.showError(null);
        await action();
        return true;
      } catch (e) {
        ui.showError(errorText(e));
        return false;
      }
    },
  };
  return ui;
}
