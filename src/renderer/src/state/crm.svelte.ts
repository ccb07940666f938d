// The CRM: contacts or accounts matching a search, and the record open beside the list, read
// again when the cache says CRM records (or tasks, which link them) changed.
import type { ChannelOutput } from '@shared/ipc/contract';
import type { CrmAccount, CrmContact } from '@shared/api/crm';
import type { Bridge } from '../lib/bridge';
import { onCacheChange } from '../lib/cache-events';
import { failedReadAgain, failedReadNote } from '../lib/errors';
import { ListReadError } from '../lib/list-read-error.svelte';

export type ContactDetail = ChannelOutput<'crm.contact'>;
export type AccountDetail = ChannelOutput<'crm.account'>;
export type CrmTab = 'contacts' | 'accounts';

/** The most rows a list shows; the search narrows longer lists. */
const LIST_LIMIT = 500;

export function contactName(contact: Pick<CrmContact, 'firstName' | 'lastName'>): string {
  return `${contact.firstName} ${contact.lastName}`.trim();
}

export class CrmState {
  #contacts = $state.raw<CrmContact[]>([]);
  #accounts = $state.raw<CrmAccount[]>([]);
  #total = $state(0);
  #text = $state('');
  /** The search (trimmed) the rows held answer; undefined before the first answer. */
  #answered = $state<string | undefined>();
  #loaded = $state(false);
  readonly #error = new ListReadError();
  #contact = $state.raw<ContactDetail | undefined>();
  #account = $state.raw<AccountDetail | undefined>();
  #recordError = $state<string | undefined>();
  #recordId: string | undefined;
  #seq = 0;
  /** The load whose answer was applied last: an older one arriving after it is dropped. */
  #applied = 0;
  readonly #bridge: Bridge;
  readonly tab: CrmTab;

  constructor(bridge: Bridge, tab: CrmTab) {
    this.#bridge = bridge;
    this.tab = tab;
  }

  get contacts(): readonly CrmContact[] {
    return this.#contacts;
  }
  get accounts(): readonly CrmAccount[] {
    return this.#accounts;
  }
  get total(): number {
    return this.#total;
  }
  get text(): string {
    return this.#text;
  }
  get loaded(): boolean {
    return this.#loaded;
  }
  /**
   * Whether the rows held answer an earlier search than the text typed: until the answer for
   * the text comes, they are shown as stale and a click on one opens nothing (it would open a
   * record the search no longer lists).
   */
  get stale(): boolean {
    return this.#loaded && this.#answered !== this.#text.trim();
  }
  /** The error shown instead of the list (nothing read yet to keep). */
  get error(): string | undefined {
    return this.#error.shown;
  }
  /** The error of a read again, shown above the rows kept from the last answer. */
  get keptError(): string | undefined {
    return this.#error.kept;
  }
  get contact(): ContactDetail | undefined {
    return this.#contact;
  }
  get account(): AccountDetail | undefined {
    return this.#account;
  }
  get recordError(): string | undefined {
    return this.#recordError;
  }

  start(): () => void {
    void this.load();
    return onCacheChange(this.#bridge, ['crmContacts', 'crmAccounts', 'tasks'], () => {
      void this.load();
      void this.#loadRecord();
    });
  }

  search(text: string): void {
    this.#text = text;
    void this.load();
  }

  async load(): Promise<void> {
    const seq = ++this.#seq;
    const asked = this.#text.trim();
    const text = asked || undefined;
    // An answer is applied while it is the latest load's, or answers the text searched now: a
    // sync's cache changes start a load about every frame, and waiting for the latest load's
    // answer alone kept the list stale (and its rows unclickable) for as long as the sync ran.
    // None is applied after a later load's answer was.
    const counts = () => seq > this.#applied && (seq === this.#seq || asked === this.#text.trim());
    try {
      if (this.tab === 'contacts') {
        const page = await this.#bridge.invoke('crm.contacts', {
          limit: LIST_LIMIT,
          ...(text ? { text } : {}),
        });
        if (!counts()) return;
        this.#contacts = page.rows;
        this.#total = page.total;
      } else {
        const page = await this.#bridge.invoke('crm.accounts', {
          limit: LIST_LIMIT,
          ...(text ? { text } : {}),
        });
        if (!counts()) return;
        this.#accounts = page.rows;
        this.#total = page.total;
      }
      this.#applied = seq;
      this.#answered = asked;
      this.#error.cleared();
      this.#loaded = true;
    } catch (err) {
      if (seq === this.#seq) {
        // Rows kept only when they answer the text asked: an earlier search's rows under the
        // new text would read as its answer.
        this.#error.failed(err, this.#answered === asked);
        this.#loaded = true;
      }
    }
  }

  /** Opens a record beside the list (undefined closes it). */
  open(recordId: string | undefined): void {
    if (recordId === this.#recordId) return;
    this.#recordId = recordId;
    this.#contact = undefined;
    this.#account = undefined;
    this.#recordError = undefined;
    void this.#loadRecord();
  }

  async #loadRecord(): Promise<void> {
    const id = this.#recordId;
    if (!id) return;
    try {
      if (this.tab === 'contacts') {
        const detail = await this.#bridge.invoke('crm.contact', { contactId: id });
        if (id === this.#recordId) this.#contact = detail;
      } else {
        const detail = await this.#bridge.invoke('crm.account', { accountId: id });
        if (id === this.#recordId) this.#account = detail;
      }
      this.#recordError = undefined;
    } catch (err) {
      if (id !== this.#recordId) return;
      const failed = failedReadAgain(err, this.tab === 'contacts' ? 'contactId' : 'accountId');
      if (failed !== 'kept') {
        this.#contact = undefined;
        this.#account = undefined;
      }
      this.#recordError =
        failed === 'gone'
          ? 'This record is no longer in the cache; it may have been deleted.'
          : failedReadNote(err, failed === 'kept' && (this.#contact ?? this.#account) !== undefined);
    }
  }

  /** Reads the open record again (its Try again). */
  reloadRecord(): Promise<void> {
    return this.#loadRecord();
  }
}
