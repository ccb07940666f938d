import { z } from 'zod';
import { channel } from './channel';
import { ServiceClock, ServiceClockSetting } from '../service-clock';
import { lazySchema } from '../lazy-schema';

/** The header the spec names; GoodDay's real service calls it `gd-api-token`. */
export const DEFAULT_TOKEN_HEADER = 'svc-api-token';

/** The id of the embedded local workspace's account (DESIGN.md "The embedded default"). */
export const LOCAL_ACCOUNT_ID = 'local';

const label = lazySchema(() => z.string().trim().min(1, 'a label is required').max(100));
const userId = lazySchema(() => z.string().trim().min(1, 'the user to act as is required').max(200));
const tokenHeader = lazySchema(() =>
  z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/, 'an HTTP header name (letters, digits and dashes)'),
);
/**
 * The service address including the `/2.0` version segment (added when the user leaves it out),
 * no trailing slash: `https://api.example.com/2.0`. Every path of the spec is relative to it.
 */
const baseUrl = lazySchema(() =>
  z
    .string()
    .trim()
    .pipe(z.url({ protocol: /^https?$/, error: 'an http or https address' }))
    .transform((url) => {
      const trimmed = url.replace(/\/+$/, '');
      return trimmed.endsWith('/2.0') ? trimmed : `${trimmed}/2.0`;
    }),
);

/** A service the app talks to. The token is never part of it: it lives in the secret store. */
export const RemoteAccount = lazySchema(() =>
  z
    .object({
      id: z.string().min(1),
      kind: z.literal('remote'),
      label,
      baseUrl,
      tokenHeader,
      userId,
      /** The clock the service stamps its moments on, as chosen; absent: learnt (`auto`). */
      serviceClock: ServiceClockSetting.optional(),
      /** What the app learnt of it from the service's answers (kept once learnt). */
      detectedServiceClock: ServiceClock.optional(),
    })
    .strict(),
);
/** The bundled service on loopback; its address changes every run, so none is stored. */
export const LocalAccount = lazySchema(() =>
  z.object({ id: z.literal(LOCAL_ACCOUNT_ID), kind: z.literal('local'), label, userId }).strict(),
);
export const Account = lazySchema(() => z.discriminatedUnion('kind', [RemoteAccount, LocalAccount]));
export type Account = z.infer<typeof Account>;
export type RemoteAccount = z.infer<typeof RemoteAccount>;
export type LocalAccount = z.infer<typeof LocalAccount>;

export const AccountsState = lazySchema(() =>
  z.object({
    accounts: z.array(Account),
    activeId: z.string().nullable(),
  }),
);
export type AccountsState = z.infer<typeof AccountsState>;

const token = lazySchema(() => z.string().trim().min(1, 'the API token is required').max(1000));

export const AddAccountInput = lazySchema(() =>
  z
    .object({
      label,
      baseUrl,
      token,
      tokenHeader: tokenHeader.default(DEFAULT_TOKEN_HEADER),
      userId,
      /**
       * An `http://` address that is not this computer carries the token and the data in clear:
       * `accounts.add` answers a `conflict` naming this field unless it is true.
       */
      insecureConfirmed: z.boolean().default(false),
    })
    .strict(),
);
export type AddAccountInput = z.infer<typeof AddAccountInput>;

/** Whether an account address sends the token in clear over the network (http, not loopback). */
export function isInsecureRemote(baseUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return !(host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '::1');
}

/** Where a service is and how to reach it: what a user gives before choosing who they are. */
export const ServiceConnectionInput = lazySchema(() =>
  z
    .object({
      baseUrl,
      token,
      tokenHeader: tokenHeader.default(DEFAULT_TOKEN_HEADER),
      /** As in `AddAccountInput`: the token goes out with this call already. */
      insecureConfirmed: z.boolean().default(false),
    })
    .strict(),
);
export type ServiceConnectionInput = z.infer<typeof ServiceConnectionInput>;

/** A user of the organization, as the add-account form offers them to pick from. */
export const OrganizationUser = lazySchema(() =>
  z.object({ id: z.string(), name: z.string(), email: z.string() }),
);
export type OrganizationUser = z.infer<typeof OrganizationUser>;

const accountId = lazySchema(() =>
  z.object({ id: z.string().min(1, 'an account id is required').max(200) }).strict(),
);

/**
 * The clock a remote account's service stamps its moments on: `utc`, `local`, or `auto` (learnt
 * again from its answers).
 */
export const SetServiceClockInput = lazySchema(() =>
  accountId.extend({ serviceClock: ServiceClockSetting }).strict(),
);
export type SetServiceClockInput = z.infer<typeof SetServiceClockInput>;

/** A new token for a remote account, e.g. after the service refused the old one (401). */
export const SetTokenInput = lazySchema(() => accountId.extend({ token }).strict());
export type SetTokenInput = z.infer<typeof SetTokenInput>;

export const accountsChannels = {
  'accounts.list': channel(
    () => z.object({}).strict(),
    () => AccountsState,
  ),
  /**
   * The test call of a new account, before the user says who they are: the organization's users
   * (GET /users with the token), sorted by name, to pick from. Nothing is saved. Fails naming
   * `baseUrl` (not reached, not this kind of service) or `token` (refused).
   */
  'accounts.users': channel(
    () => ServiceConnectionInput,
    () => z.object({ users: z.array(OrganizationUser), unreadable: z.number().int().min(0) }),
  ),
  /** Checks the service with a test call using the token before anything is saved. */
  'accounts.add': channel(
    () => AddAccountInput,
    () => Account,
  ),
  'accounts.switch': channel(
    () => accountId,
    () => AccountsState,
  ),
  /**
   * Replaces a remote account's token after a test call with it succeeds. For the open account,
   * sending and syncing start again with it (the "token needed" state of `sync.status` ends).
   * The token is stored in the secret store only; nothing answers or logs it.
   */
  'accounts.setToken': channel(
    () => SetTokenInput,
    () => AccountsState,
  ),
  /** Sets a remote account's service clock; the open account reads and writes times on it at once. */
  'accounts.setServiceClock': channel(
    () => SetServiceClockInput,
    () => AccountsState,
  ),
  /**
   * Signs out of an account and removes its cache. When changes are still waiting to be sent,
   * it answers a `conflict` error naming `confirmed` unless `confirmed` is true.
   */
  'accounts.remove': channel(
    () => accountId.extend({ confirmed: z.boolean().default(false) }).strict(),
    () => AccountsState,
  ),
};

export const accountsEvents = {
  'accounts.onDidChange': AccountsState,
};
