// Accounts and preferences, kept by the shell in `settings.json`.
// When the core offers no settings channels (a bare core in tests), `available` is false and
// the theme falls back to this renderer's own storage.
import type { ServiceClockSetting } from '@shared/service-clock';
import type { Account, AccountsState, OrganizationUser } from '@shared/ipc/accounts';
import type { Preferences } from '@shared/ipc/settings';
import type { ChannelInput } from '@shared/ipc/contract';
import type { Bridge } from '../lib/bridge';
import { BridgeError } from '../lib/bridge';
import { describeError } from '../lib/errors';
import type { Theme } from '../lib/theme.svelte';
import { toasts } from '../lib/toasts.svelte';
import { createRunWrite, type RunWrite, type WriteOptions, type WriteOutcome } from '../lib/run-write';

export class SettingsState {
  #accounts = $state.raw<AccountsState | undefined>();
  #preferences = $state.raw<Preferences | undefined>();
  #available = $state(true);
  #error = $state<string | undefined>();
  readonly #bridge: Bridge;
  /** Writes go on the write path through the same bridge. */
  readonly #runWrite: RunWrite;
  readonly #theme: Theme;

  constructor(bridge: Bridge, theme: Theme) {
    this.#bridge = bridge;
    this.#runWrite = createRunWrite(bridge, toasts);
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
    // The accounts' and preferences' changes sent while the connection to the core was lost
    // were missed.
    const offConnection = this.#bridge.onConnection((connected) => {
      if (connected) void this.#load();
    });
    return () => {
      offAccounts();
      offSettings();
      offConnection();
    };
  }

  async #load(): Promise<void> {
    try {
      const [accounts, prefs] = await Promise.all([
        this.#bridge.invoke('accounts.list', {}),
        this.#bridge.invoke('settings.get', {}),
      ]);
      // Through the switch check: an account switched while the connection was lost is a
      // switch (the first load is not: nothing was shown before it).
      this.#setAccounts(accounts);
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

  /**
   * Changes preferences, on the write path (`options` names the toasts); the theme applies at
   * once even before the shell answers. With no settings channels only the theme changes.
   */
  async update(
    patch: ChannelInput<'settings.update'>,
    options?: WriteOptions,
  ): Promise<WriteOutcome<Preferences | undefined>> {
    if (patch.theme) this.#theme.set(patch.theme);
    if (!this.#available) return { ok: true, value: undefined };
    const outcome = await this.#runWrite('settings.update', patch, options);
    if (outcome.ok) this.#setPreferences(outcome.value);
    return outcome;
  }

  /**
   * The first step of adding an account: the service's users, read with the token (nothing is
   * saved). Throws naming the field at fault (`baseUrl`, `token`).
   */
  async listUsers(
    input: ChannelInput<'accounts.users'>,
  ): Promise<{ users: OrganizationUser[]; unreadable: number }> {
    return this.#bridge.invoke('accounts.users', input);
  }

  /**
   * Adds a remote account after the shell checked it with a test call; a refusal names the
   * field. `insecureConfirmed`: the user confirmed an http:// address that is not this computer.
   */
  async addAccount(input: ChannelInput<'accounts.add'>): Promise<WriteOutcome<Account>> {
    const outcome = await this.#runWrite('accounts.add', input);
    if (outcome.ok) this.#accounts = await this.#bridge.invoke('accounts.list', {});
    return outcome;
  }

  /**
   * Gives an account a new token after the service refused the old one; the shell checks it
   * with a test call first. A refusal names the field. Nothing about the token comes back.
   */
  setToken(id: string, token: string, options?: WriteOptions): Promise<WriteOutcome<AccountsState>> {
    return this.#accountsWrite('accounts.setToken', { id, token }, options);
  }

  /** Chooses the clock a remote account's service stamps its times on (`auto`: learnt again). */
  setServiceClock(
    id: string,
    serviceClock: ServiceClockSetting,
    options?: WriteOptions,
  ): Promise<WriteOutcome<AccountsState>> {
    return this.#accountsWrite('accounts.setServiceClock', { id, serviceClock }, options);
  }

  switchTo(id: string, options?: WriteOptions): Promise<WriteOutcome<AccountsState>> {
    return this.#accountsWrite('accounts.switch', { id }, options);
  }

  async #accountsWrite<C extends 'accounts.setToken' | 'accounts.setServiceClock' | 'accounts.switch'>(
    channel: C,
    input: ChannelInput<C>,
    options: WriteOptions | undefined,
  ): Promise<WriteOutcome<AccountsState>> {
    const outcome = await this.#runWrite(channel, input, options);
    if (outcome.ok) this.#setAccounts(outcome.value);
    return outcome;
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
   * `confirmed` was not given, so the view can ask first; another refusal is told as `failure`.
   */
  async remove(
    id: string,
    confirmed: boolean,
    failure: string,
  ): Promise<'removed' | 'needs-confirmation' | 'refused'> {
    const outcome = await this.#runWrite('accounts.remove', { id, confirmed });
    if (outcome.ok) {
      this.#accounts = outcome.value;
      return 'removed';
    }
    const error = outcome.error;
    if (!confirmed && error instanceof BridgeError && error.type === 'conflict') return 'needs-confirmation';
    toasts.error(failure, error);
    return 'refused';
  }
}
