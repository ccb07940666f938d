// The color theme: light, dark, or following the system. Until the shell's settings channel is
// there the choice is kept in this renderer's localStorage; the applied theme is the
// `data-theme` attribute the tokens read.

export type ThemeChoice = 'light' | 'dark' | 'system';
const KEY = 'workdesk.theme';

function isThemeChoice(value: unknown): value is ThemeChoice {
  return value === 'light' || value === 'dark' || value === 'system';
}

export class Theme {
  #choice = $state<ThemeChoice>('system');
  #systemDark = $state(false);

  constructor() {
    const saved = safeGet(KEY);
    if (isThemeChoice(saved)) this.#choice = saved;
    const query = window.matchMedia?.('(prefers-color-scheme: dark)');
    if (query) {
      this.#systemDark = query.matches;
      query.addEventListener('change', (event) => {
        this.#systemDark = event.matches;
        this.#apply();
      });
    }
    this.#apply();
  }

  get choice(): ThemeChoice {
    return this.#choice;
  }
  get applied(): 'light' | 'dark' {
    return this.#choice === 'system' ? (this.#systemDark ? 'dark' : 'light') : this.#choice;
  }

  set(choice: ThemeChoice): void {
    this.#choice = choice;
    safeSet(KEY, choice);
    this.#apply();
  }

  #apply(): void {
    document.documentElement.dataset['theme'] = this.applied;
  }
}

function safeGet(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function safeSet(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode); the choice then lasts for this session.
  }
}
