import { describe, expect, it, vi } from 'vitest';
import { AddAccountInput, isInsecureRemote } from '../../../shared/ipc/accounts';
import { HandlerError } from '../errors';
import { createAccounts, type AccountsDeps } from './accounts';
import { createMemorySecretStore } from './secret-store';
import { createMemorySettingsStore } from './settings-store';
import { createProbe } from './probe';

function setup(overrides: Partial<AccountsDeps> = {}) {
  let n = 0;
  const deps: AccountsDeps = {
    settings: createMemorySettingsStore(),
    secrets: createMemorySecretStore(),
    probe: vi.fn(async () => {}),
    pendingChanges: vi.fn(async () => 0),
    dropAccountData: vi.fn(async () => {}),
    newId: () => `acc-${++n}`,
    ...overrides,
  };
  return { deps, accounts: createAccounts(deps) };
}

// As the dispatch hands it over: parsed, so the address carries `/2.0`.
const input = AddAccountInput.parse({
  label: 'Work',
  baseUrl: 'https://svc.example.com/',
  token: 'tok-123',
  tokenHeader: 'gd-api-token',
  userId: 'u1',
});

describe('accounts', () => {
  it('adds an account after the probe, with the token only in the secret store', async () => {
    const { deps, accounts } = setup();
    const account = await accounts.add(input);
    expect(deps.probe).toHaveBeenCalledWith(input);
    expect(account).toEqual({
      id: 'acc-1',
      kind: 'remote',
      label: 'Work',
      baseUrl: 'https://svc.example.com/2.0',
      tokenHeader: 'gd-api-token',
      userId: 'u1',
    });
    expect(JSON.stringify(deps.settings.read())).not.toContain('tok-123');
    expect(deps.secrets.get('acc-1')).toBe('tok-123');
    expect(accounts.remoteConnection(account)).toEqual({
      baseUrl: 'https://svc.example.com/2.0',
      token: 'tok-123',
      tokenHeader: 'gd-api-token',
      userId: 'u1',
    });
  });

  it('asks before adding an http:// address that is not this computer; loopback and https need nothing', async () => {
    const { deps, accounts } = setup();
    const plain = AddAccountInput.parse({ ...input, baseUrl: 'http://team.example.com:8080' });
    await expect(accounts.add(plain)).rejects.toMatchObject({
      type: 'conflict',
      field: 'insecureConfirmed',
      message: expect.stringMatching(/http:\/\/team\.example\.com:8080 is not encrypted/),
    });
    expect(deps.probe).not.toHaveBeenCalled();
    expect(deps.settings.read().accounts).toEqual([]);
    await accounts.add({ ...plain, insecureConfirmed: true });
    for (const baseUrl of ['http://127.0.0.1:4000', 'http://localhost:4000', 'http://[::1]:4000']) {
      expect(isInsecureRemote(AddAccountInput.parse({ ...input, baseUrl }).baseUrl)).toBe(false);
    }
    expect(isInsecureRemote('https://team.example.com/2.0')).toBe(false);
    expect(isInsecureRemote('http://192.168.1.4/2.0')).toBe(true);
  });

  it('saves nothing when the probe fails', async () => {
    const { deps, accounts } = setup({
      probe: async () => {
        throw new HandlerError('unauthorized', 'refused', 'token');
      },
    });
    await expect(accounts.add(input)).rejects.toMatchObject({ type: 'unauthorized', field: 'token' });
    expect(deps.settings.read().accounts).toEqual([]);
    expect(deps.secrets.get('acc-1')).toBeUndefined();
  });

  it('refuses the same service and user twice', async () => {
    const { accounts } = setup();
    await accounts.add(input);
    await expect(accounts.add({ ...input, label: 'Again' })).rejects.toMatchObject({
      type: 'conflict',
      field: 'baseUrl',
    });
  });

  it('records the local workspace once and makes it active when nothing else is', () => {
    const { accounts } = setup();
    accounts.ensureLocal('demo-user');
    accounts.ensureLocal('demo-user');
    expect(accounts.state()).toEqual({
      accounts: [{ id: 'local', kind: 'local', label: 'Local workspace', userId: 'demo-user' }],
      activeId: 'local',
    });
  });

  it('switches the active account and refuses an unknown id', async () => {
    const { accounts } = setup();
    accounts.ensureLocal('demo-user');
    const added = await accounts.add(input);
    expect(accounts.setActive(added.id).activeId).toBe(added.id);
    expect(() => accounts.setActive('nope')).toThrow(/No account with id "nope"/);
    expect(accounts.active()?.id).toBe(added.id);
  });

  it('asks for confirmation before removing an account with pending changes', async () => {
    const { deps, accounts } = setup({ pendingChanges: async () => 3 });
    accounts.ensureLocal('demo-user');
    const added = await accounts.add(input);
    accounts.setActive(added.id);
    await expect(accounts.remove(added.id, false)).rejects.toMatchObject({
      type: 'conflict',
      field: 'confirmed',
      message: expect.stringMatching(/3 changes have not been sent to "Work"/),
    });
    expect(deps.dropAccountData).not.toHaveBeenCalled();
    expect(accounts.state().accounts).toHaveLength(2);

    const after = await accounts.remove(added.id, true);
    expect(deps.dropAccountData).toHaveBeenCalledWith(added.id);
    expect(deps.secrets.get(added.id)).toBeUndefined();
    expect(after).toEqual({ accounts: [expect.objectContaining({ id: 'local' })], activeId: 'local' });
  });

  it('asks for confirmation when the pending count cannot be known', async () => {
    const { deps, accounts } = setup({ pendingChanges: async () => null });
    const added = await accounts.add(input);
    await expect(accounts.remove(added.id, false)).rejects.toMatchObject({
      type: 'conflict',
      field: 'confirmed',
      message: expect.stringMatching(/may not all have been sent/),
    });
    expect(deps.dropAccountData).not.toHaveBeenCalled();
    await accounts.remove(added.id, true);
    expect(deps.dropAccountData).toHaveBeenCalledWith(added.id);
  });

  it('removes without asking when nothing is pending, and never removes the local workspace', async () => {
    const { deps, accounts } = setup();
    accounts.ensureLocal('demo-user');
    const added = await accounts.add(input);
    await accounts.remove(added.id, false);
    expect(deps.dropAccountData).toHaveBeenCalledOnce();
    await expect(accounts.remove('local', true)).rejects.toMatchObject({ type: 'rejected', field: 'id' });
  });
});

describe('account input', () => {
  it('adds the /2.0 segment when it is left out, and keeps it when given', () => {
    const parse = (baseUrl: string) => AddAccountInput.parse({ ...input, baseUrl }).baseUrl;
    expect(parse('https://api.example.com')).toBe('https://api.example.com/2.0');
    expect(parse('https://api.example.com/2.0/')).toBe('https://api.example.com/2.0');
    expect(AddAccountInput.safeParse({ ...input, baseUrl: 'ftp://x' }).error?.issues[0]?.path).toEqual([
      'baseUrl',
    ]);
    expect(
      AddAccountInput.parse({ label: 'x', baseUrl: 'http://h', token: 't', userId: 'u' }).tokenHeader,
    ).toBe('svc-api-token');
  });
});

describe('probe', () => {
  const connection = { baseUrl: 'http://svc/2.0', token: 't', tokenHeader: 'svc-api-token', userId: 'u 1' };

  it('calls the acting user\u2019s action-required tasks with the token header', async () => {
    const fetchFn = vi.fn(async () => new Response('[]', { status: 200 }));
    await createProbe(fetchFn as typeof fetch)(connection);
    expect(fetchFn).toHaveBeenCalledWith(
      'http://svc/2.0/user/u%201/action-required-tasks',
      expect.objectContaining({ headers: expect.objectContaining({ 'svc-api-token': 't' }) }),
    );
  });

  it.each([
    [401, 'unauthorized', 'token'],
    [404, 'rejected', 'userId'],
    [500, 'rejected', 'baseUrl'],
  ])('maps HTTP %i to %s naming %s', async (status, type, field) => {
    const probe = createProbe((async () => new Response('{}', { status })) as typeof fetch);
    await expect(probe(connection)).rejects.toMatchObject({ type, field });
  });

  it('refuses a server that does not answer a list, and names an unreachable one', async () => {
    const notService = createProbe((async () => new Response('<html>', { status: 200 })) as typeof fetch);
    await expect(notService(connection)).rejects.toMatchObject({ type: 'rejected', field: 'baseUrl' });
    const down = createProbe((async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch);
    await expect(down(connection)).rejects.toMatchObject({
      type: 'offline',
      field: 'baseUrl',
      message: 'Could not reach http://svc/2.0: fetch failed',
    });
  });

  describe('service clock', () => {
    it('keeps the local workspace on local time and refuses to change it', () => {
      const { accounts } = setup();
      const local = accounts.ensureLocal('u-ada');
      expect(accounts.serviceClockOf(local)).toEqual({ setting: 'local' });
      expect(() => accounts.setServiceClock({ id: local.id, serviceClock: 'utc' })).toThrow(
        expect.objectContaining({ field: 'serviceClock' }),
      );
    });

    it('saves what a remote account learnt once, and a choice replaces it; automatic learns again', async () => {
      const { deps, accounts } = setup();
      const account = await accounts.add(input);
      const options = accounts.serviceClockOf(account);
      expect(options).toMatchObject({ setting: 'auto' });
      expect(options).not.toHaveProperty('detected');
      options.save?.('utc');
      const learnt = deps.settings.read().accounts.find((a) => a.id === account.id)!;
      expect(learnt).toMatchObject({ detectedServiceClock: 'utc' });
      expect(accounts.serviceClockOf(learnt)).toMatchObject({ setting: 'auto', detected: 'utc' });

      const chosen = accounts.setServiceClock({ id: account.id, serviceClock: 'local' });
      expect(chosen).toMatchObject({ serviceClock: 'local' });
      expect(chosen).not.toHaveProperty('detectedServiceClock');
      expect(accounts.serviceClockOf(chosen)).toMatchObject({ setting: 'local' });

      const auto = accounts.setServiceClock({ id: account.id, serviceClock: 'auto' });
      expect(auto).not.toHaveProperty('serviceClock');
      expect(deps.settings.read().accounts.find((a) => a.id === account.id)).toEqual(auto);
    });
  });
});
