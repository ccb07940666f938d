import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildServer, type ServerOptions } from './app';
import { MIN_TOKEN_LENGTH } from './http/auth';
import { isServiceProfile, SERVICE_PROFILES } from './profiles';
import { defaultProjectCount, type SeedSpec } from './seed/index';

const USAGE = `npm run server -- [options]
  --port N               default 8080 (0: any free port)
  --host H               default 127.0.0.1; 0.0.0.0 serves the network (use TLS there)
  --data DIR             default .data/server
  --seed demo|empty|generated
                         written into an empty database only; default demo
  --tasks N              with --seed generated: how many tasks (3 messages each)
  --projects M           with --seed generated: how many projects and folders; default N/100
  --profile spec|goodday answer as the spec (default) or as GoodDay's live service
  --token T              the organization-wide token, at least ${MIN_TOKEN_LENGTH} characters; default a new one
  --user-tokens FILE     JSON {"<user id>": "<token>"}: tokens that may act only as their user
  --tls-cert FILE        serve HTTPS with this PEM certificate (with --tls-key)
  --tls-key FILE         and this PEM private key
  --base-url URL         the public address upload URLs are built on (behind a proxy)
  --upload-limit BYTES   cap of one uploaded file; default 100 MiB`;

/** A refusal of the command line or its files: printed with the usage. */
class UsageError extends Error {}

/** True when `host` is reachable only from this machine. */
function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '::ffff:127.0.0.1';
}

function readFile(flag: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new UsageError(`${flag}: cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function checkToken(where: string, token: string): void {
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new UsageError(
      `${where}: a token must be at least ${MIN_TOKEN_LENGTH} characters (this one has ${token.length}); ` +
        'a short token can be guessed. Leave --token out to have one made.',
    );
  }
}

/** The per-user tokens file: a JSON object of user id to token, every token long enough and unique. */
function readUserTokens(path: string, orgToken: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFile('--user-tokens', path).toString('utf8'));
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`--user-tokens: ${path} is not valid JSON`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UsageError(`--user-tokens: ${path} must hold an object {"<user id>": "<token>"}`);
  }
  const seen = new Set([orgToken]);
  const out: Record<string, string> = {};
  for (const [userId, token] of Object.entries(parsed as Record<string, unknown>)) {
    if (typeof token !== 'string')
      throw new UsageError(`--user-tokens: ${userId}: the token must be a string`);
    checkToken(`--user-tokens: ${userId}`, token);
    if (seen.has(token)) throw new UsageError(`--user-tokens: ${userId}: the token is used twice`);
    seen.add(token);
    out[userId] = token;
  }
  return out;
}

/** The largest generated workspace: beyond it the seed takes minutes and gigabytes. */
const MAX_GENERATED_TASKS = 1_000_000;

function count(flag: string, text: string, max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new UsageError(`${flag}: must be a whole number from 1 to ${max}`);
  return n;
}

function readSeed(values: {
  seed: string;
  tasks?: string | undefined;
  projects?: string | undefined;
}): SeedSpec {
  if (values.seed === 'generated') {
    if (values.tasks === undefined) throw new UsageError('--seed generated: give the size with --tasks N');
    const tasks = count('--tasks', values.tasks, MAX_GENERATED_TASKS);
    const projects =
      values.projects === undefined
        ? defaultProjectCount(tasks)
        : count('--projects', values.projects, 100_000);
    if (projects < 2) throw new UsageError('--projects: must be at least 2 (the first one is a folder)');
    return { kind: 'generated', tasks, projects };
  }
  if (values.tasks !== undefined || values.projects !== undefined)
    throw new UsageError('--tasks and --projects: only with --seed generated');
  if (values.seed !== 'demo' && values.seed !== 'empty')
    throw new UsageError('--seed: must be demo, empty or generated');
  return values.seed;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8080' },
      host: { type: 'string', default: '127.0.0.1' },
      data: { type: 'string', default: '.data/server' },
      seed: { type: 'string', default: 'demo' },
      tasks: { type: 'string' },
      projects: { type: 'string' },
      token: { type: 'string' },
      'user-tokens': { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'base-url': { type: 'string' },
      'upload-limit': { type: 'string' },
      profile: { type: 'string', default: 'spec' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port: not a port number: ${values.port}`);
  const seed = readSeed(values);
  const profile = values.profile;
  if (!isServiceProfile(profile)) throw new UsageError(`--profile: must be ${SERVICE_PROFILES.join(' or ')}`);
  const uploadLimit = values['upload-limit'] === undefined ? undefined : Number(values['upload-limit']);
  if (uploadLimit !== undefined && !(Number.isInteger(uploadLimit) && uploadLimit > 0))
    throw new UsageError(`--upload-limit: not a positive number of bytes: ${values['upload-limit']}`);
  if (values.token !== undefined) checkToken('--token', values.token);
  const token = values.token ?? randomBytes(24).toString('base64url');
  const userTokens = values['user-tokens'] ? readUserTokens(values['user-tokens'], token) : undefined;
  if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined))
    throw new UsageError('--tls-cert and --tls-key: give both or neither');
  const tls =
    values['tls-cert'] && values['tls-key']
      ? { cert: readFile('--tls-cert', values['tls-cert']), key: readFile('--tls-key', values['tls-key']) }
      : undefined;

  const dataDir = resolve(values.data);
  const options: ServerOptions = {
    dbPath: join(dataDir, 'service.sqlite'),
    filesDir: join(dataDir, 'files'),
    tokens: [token],
    seed,
    profile,
    ...(userTokens ? { userTokens } : {}),
    ...(tls ? { tls } : {}),
    ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
    ...(uploadLimit ? { uploadLimitBytes: uploadLimit } : {}),
  };
  let app;
  try {
    app = buildServer(options);
  } catch (err) {
    // A bad certificate or key, or a per-user token naming no user.
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const address = await app.listen({ port, host: values.host });
  if (!tls && !isLoopbackHost(values.host)) {
    process.stderr.write(
      `warning: serving ${values.host} without TLS: the token and all data cross the network in clear ` +
        'text. Give --tls-cert and --tls-key, or put a reverse proxy with TLS in front.\n',
    );
  }
  if (tls && !values['base-url']) {
    process.stderr.write(
      'note: upload addresses are built on the IP address a connection reached; if the certificate ' +
        'names a host, give --base-url https://<host>:<port> so that they match it.\n',
    );
  }
  const base = (values['base-url'] ?? address).replace(/\/+$/, '');
  process.stdout.write(
    `Work Management Service 2.0 (profile ${profile})\n  base URL: ${base}/2.0\n  token:    ${token}\n` +
      (userTokens ? `  per-user tokens: ${Object.keys(userTokens).length}\n` : '') +
      `  data:     ${dataDir}\n`,
  );
  const stop = () => {
    void app.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(err instanceof UsageError ? `${message}\n\n${USAGE}\n` : `${message}\n`);
  process.exit(1);
});
