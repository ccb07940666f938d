// Accounts and preferences, kept by the shell in `settings.json`.
// When the core offers no settings channels (a bare core in tests), `available` is false and
// the theme falls back to this renderer's own storage.
import type { ServiceClockSetting } from '@shared/service-clock';
import type { Account, AccountsState, OrganizationUser } from '@shared/ipc/accounts';
import type { Preferences } from '@shared/ipc/settings';
import type { Bridge } from '../lib/bridge';
import { BridgeError } from '../lib/bridge';
import { describeError } from '../lib/errors';
import type { Theme } from '../lib/theme.svelte';

export class SettingsState {
  #accounts = $state.raw<AccountsState | undefined>();
  #preferences = $state.raw<Preferences | undefined>();
  #available = $state(true);
  #error = $state<string | undefined>();
  readonly #bridge: Bridge;
  readonly #theme: Theme;

  constructor(bridge: Bridge, theme: Theme) {
    this.#bridge = bridge;
    this.#theme = theme;
  }

  get available(): boolean {
    return this.#available;
  }
  get accounts(): readonly Account[] {
    return this.#accounts?.accounts ?? [];
  }
  get activeId(): string | null {
    return this.#accounts?.activeId ?? null;
  }
  get active(): Account | undefined {
    return this.accounts.find((account) => account.id === this.activeId);
  }
  get preferences(): Preferences | undefined {
    return this.#preferences;
  }
  get error(): string | undefined {
    return this.#error;
  }

  start(): () => void {
    void this.#load();
    const offAccounts = this.#bridge.on('accounts.onDidChange', (state) => this.#setAccounts(state));
    const offSettings = this.#bridge.on('settings.onDidChange', (prefs) => this.#setPreferences(prefs));
    return () => {
      offAccounts();
      offSettings();
    };
  }

  async #load(): Promise<void> {
    try {
      const [accounts, prefs] = await Promise.all([
        this.#bridge.invoke('accounts.list', {}),
        this.#bridge.invoke('settings.get', {}),
      ]);
      this.#accounts = accounts;
      this.#setPreferences(prefs);
      this.#available = true;
    } catch (err) {
      if (err instanceof BridgeError && err.type === 'unknown-channel') this.#available = false;
      else this.#error = describeError(err);
    }
  }

  #setPreferences(prefs: Preferences): void {
    this.#preferences = prefs;
    this.#theme.set(prefs.theme);
  }

  /** Changes preferences; the theme applies at once even before the shell answers. */
  async update(patch: Partial<Preferences>): Promise<void> {
    if (patch.theme) this.#theme.set(patch.theme);
    if (!this.#available) return;
    this.#setPreferences(await this.#bridge.invoke('settings.update', patch));
  }

  /**
   * The first step of adding an account: the service's users, read with the token (nothing is
   * saved). Throws naming the field at fault (`baseUrl`, `token`).
   */
  async listUsers(input: {
    baseUrl: string;
    token: string;
    tokenHeader: string;
    insecureConfirmed?: boolean;
  }): Promise<{ users: OrganizationUser[]; unreadable: number }> {
    return this.#bridge.invoke('accounts.users', input);
  }

  /** Adds a remote account after the shell checked it with a test call; throws naming the field. */
  async addAccount(input: {
    label: string;
    baseUrl: string;
    token: string;
    tokenHeader: string;
    userId: string;
    /** The user confirmed an http:// address that is not this computer. */
    insecureConfirmed?: boolean;
  }): Promise<Account> {
    const account = await this.#bridge.invoke('accounts.add', input);
    this.#accounts = await this.#bridge.invoke('accounts.list', {});
    return account;
  }

  /**
   * Gives an account a new token after the service refused the old one; the shell checks it
   * with a test call first. Throws naming the field. Nothing about the token comes back.
   */
  async setToken(id: string, token: string): Promise<void> {
    this.#setAccounts(await this.#bridge.invoke('accounts.setToken', { id, token }));
  }

  /** Chooses the clock a remote account's service stamps its times on (`auto`: learnt again). */
  async setServiceClock(id: string, serviceClock: ServiceClockSetting): Promise<void> {
    this.#setAccounts(await this.#bridge.invoke('accounts.setServiceClock', { id, serviceClock }));
  }

  async switchTo(id: string): Promise<void> {
    this.#setAccounts(await this.#bridge.invoke('accounts.switch', { id }));
  }

  /** Called when the active account changes: every view must read the new account's cache. */
  onSwitch: () => void = () => {};

  #setAccounts(state: AccountsState): void {
    const switched = this.#accounts !== undefined && this.#accounts.activeId !== state.activeId;
    this.#accounts = state;
    if (switched) this.onSwitch();
  }

  /**
   * Signs out of an account. Answers 'needs-confirmation' when changes are still waiting and
   * `confirmed` was not given, so the view can ask first.
   */
  async remove(id: string, confirmed = false): Promise<'removed' | 'needs-confirmation'> {
    try {
      this.#accounts = await this.#bridge.invoke('accounts.remove', { id, confirmed });
      return 'removed';
    } catch (err) {
      if (!confirmed && err instanceof BridgeError && err.type === 'conflict') return 'needs-confirmation';
      throw err;
    }
  }
}
