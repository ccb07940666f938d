import {
  isInsecureRemote,
  LOCAL_ACCOUNT_ID,
  type Account,
  type AccountsState,
  type AddAccountInput,
  type LocalAccount,
  type SetServiceClockInput,
  type SetTokenInput,
} from '../../../shared/ipc/accounts';
import type { ServiceClockOptions } from '../api/service-clock';
import { HandlerError } from '../errors';
import type { Connection, Probe } from './probe';
import type { SecretStore } from './secret-store';
import type { SettingsStore } from './settings-store';

export interface AccountsDeps {
  settings: SettingsStore;
  secrets: SecretStore;
  probe: Probe;
  /**
   * Changes of this account not yet acknowledged by its service, or null when that cannot be
   * known (then signing out asks for confirmation as if some were pending).
   */
  pendingChanges(accountId: string): Promise<number | null>;
  /** Deletes the account's cache, outbox and spool. */
  dropAccountData(accountId: string): Promise<void>;
  newId(): string;
}

export interface Accounts {
  state(): AccountsState;
  active(): Account | undefined;
  /** Records the local workspace's account (kept across runs); its token is the local service's. */
  ensureLocal(userId: string): LocalAccount;
  /** Checks the service with the token, then saves the account (token in the secret store). */
  add(input: AddAccountInput): Promise<Account>;
  setActive(id: string): AccountsState;
  /** Checks the service with the new token, then stores it (remote accounts only). */
  setToken(input: SetTokenInput): Promise<Account>;
  /** Refuses with a `conflict` naming `confirmed` when changes are pending and not confirmed. */
  remove(id: string, confirmed: boolean): Promise<AccountsState>;
  /** The remote connection of an account; the local one's address is only known once started. */
  remoteConnection(account: Account): Connection;
  /**
   * The service clock of an account's engine: the local workspace's bundled service shares this
   * machine's zone (local time); a remote account's is its setting, else what was learnt (saved
   * into the account once).
   */
  serviceClockOf(account: Account): Omit<ServiceClockOptions, 'log'>;
  /** Chooses a remote account's clock; `auto` forgets what was learnt, to learn it again. */
  setServiceClock(input: SetServiceClockInput): Account;
}

/**
 * An `http://` address that is not this computer would carry the token, and everything read or
 * written, in clear across the network: the user confirms it first (a `conflict` naming
 * `insecureConfirmed`), before the token is sent anywhere.
 */
export function refuseUnconfirmedClearText(input: { baseUrl: string; insecureConfirmed: boolean }): void {
  if (!isInsecureRemote(input.baseUrl) || input.insecureConfirmed) return;
  throw new HandlerError(
    'conflict',
    `${new URL(input.baseUrl).origin} is not encrypted (http://): the token and your data would cross the network in clear. Use an https:// address, or confirm to add it anyway`,
    'insecureConfirmed',
  );
}

export function createAccounts(deps: AccountsDeps): Accounts {
  const { settings, secrets } = deps;

  function find(id: string): Account {
    const account = settings.read().accounts.find((a) => a.id === id);
    if (!account) throw new HandlerError('not-found', `No account with id "${id}"`, 'id');
    return account;
  }

  function state(): AccountsState {
    const { accounts, activeAccountId } = settings.read();
    return { accounts, activeId: activeAccountId };
  }

  return {
    state,
    active() {
      const { accounts, activeAccountId } = settings.read();
      return accounts.find((a) => a.id === activeAccountId);
    },
    ensureLocal(userId) {
      const current = settings.read();
      const local: LocalAccount = { id: LOCAL_ACCOUNT_ID, kind: 'local', label: 'Local workspace', userId };
      const others = current.accounts.filter((a) => a.id !== LOCAL_ACCOUNT_ID);
      settings.write({
        ...current,
        accounts: [local, ...others],
        activeAccountId: current.activeAccountId ?? LOCAL_ACCOUNT_ID,
      });
      return local;
    },
    async add(input) {
      const current = settings.read();
      const duplicate = current.accounts.find(
        (a) => a.kind === 'remote' && a.baseUrl === input.baseUrl && a.userId === input.userId,
      );
      if (duplicate) {
        throw new HandlerError(
          'conflict',
          `An account for ${input.userId} at ${input.baseUrl} already exists ("${duplicate.label}")`,
          'baseUrl',
        );
      }
      refuseUnconfirmedClearText(input);
      await deps.probe(input);
      const account: Account = {
        id: deps.newId(),
        kind: 'remote',
        label: input.label,
        baseUrl: input.baseUrl,
        tokenHeader: input.tokenHeader,
        userId: input.userId,
      };
      secrets.set(account.id, input.token);
      // Read again: the probe awaited, and settings may have changed meanwhile.
      const latest = settings.read();
      settings.write({ ...latest, accounts: [...latest.accounts, account] });
      return account;
    },
    async setToken({ id, token }) {
      const account = find(id);
      if (account.kind !== 'remote') {
        throw new HandlerError('rejected', 'The local workspace manages its own token', 'id');
      }
      await deps.probe({
        baseUrl: account.baseUrl,
        tokenHeader: account.tokenHeader,
        userId: account.userId,
        token,
      });
      secrets.set(account.id, token);
      return account;
    },
    setActive(id) {
      find(id);
      settings.write({ ...settings.read(), activeAccountId: id });
      return state();
    },
    async remove(id, confirmed) {
      const account = find(id);
      if (account.kind === 'local') {
        throw new HandlerError('rejected', 'The local workspace cannot be signed out of', 'id');
      }
      const pending = await deps.pendingChanges(id);
      if (pending === null && !confirmed) {
        throw new HandlerError(
          'conflict',
          `Changes made in "${account.label}" may not all have been sent; confirm to discard them and sign out`,
          'confirmed',
        );
      }
      if (pending !== null && pending > 0 && !confirmed) {
        throw new HandlerError(
          'conflict',
          `${pending} change${pending === 1 ? ' has' : 's have'} not been sent to "${account.label}" yet; confirm to discard ${pending === 1 ? 'it' : 'them'} and sign out`,
          'confirmed',
        );
      }
      await deps.dropAccountData(id);
      secrets.delete(id);
      const latest = settings.read();
      const accounts = latest.accounts.filter((a) => a.id !== id);
      const activeAccountId =
        latest.activeAccountId === id ? (accounts[0]?.id ?? null) : latest.activeAccountId;
      settings.write({ ...latest, accounts, activeAccountId });
      return state();
    },
    serviceClockOf(account) {
      if (account.kind === 'local') return { setting: 'local' };
      return {
        setting: account.serviceClock ?? 'auto',
        ...(account.detectedServiceClock ? { detected: account.detectedServiceClock } : {}),
        save(clock) {
          const latest = settings.read();
          settings.write({
            ...latest,
            accounts: latest.accounts.map((a) =>
              a.id === account.id && a.kind === 'remote' ? { ...a, detectedServiceClock: clock } : a,
            ),
          });
        },
      };
    },
    setServiceClock({ id, serviceClock }) {
      const account = find(id);
      if (account.kind !== 'remote') {
        throw new HandlerError(
          'rejected',
          "The local workspace's service keeps this machine's time",
          'serviceClock',
        );
      }
      const { serviceClock: _was, detectedServiceClock: _learnt, ...rest } = account;
      const next: Account = serviceClock === 'auto' ? rest : { ...rest, serviceClock };
      const latest = settings.read();
      settings.write({ ...latest, accounts: latest.accounts.map((a) => (a.id === id ? next : a)) });
      return next;
    },
    remoteConnection(account) {
      if (account.kind !== 'remote') throw new Error('The local account has no stored address');
      // A token missing from the secret store (a damaged secrets file, one that no longer
      // decrypts) opens the account without one: the service refuses the first request (401),
      // and the status bar asks for the token (the flow of a revoked one). The app still starts
      // on this account, its unsent changes in reach.
      const token = secrets.get(account.id) ?? '';
      return { baseUrl: account.baseUrl, tokenHeader: account.tokenHeader, userId: account.userId, token };
    },
  };
}
