import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildServer } from './app';
import { isServiceProfile, SERVICE_PROFILES } from './profiles';
import type { SeedKind } from './seed/index';

/**
 * npm run server -- --port N --data DIR [--seed demo|empty] [--token T] [--host H] [--base-url URL]
 *   [--profile spec|goodday]
 * Runs the service standalone; prints its base URL and token. Without --token a new one is made
 * for this run.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8080' },
      host: { type: 'string', default: '127.0.0.1' },
      data: { type: 'string', default: '.data/server' },
      seed: { type: 'string', default: 'demo' },
      token: { type: 'string' },
      'base-url': { type: 'string' },
      'upload-limit': { type: 'string' },
      profile: { type: 'string', default: 'spec' },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port: not a port number: ${values.port}`);
  if (values.seed !== 'demo' && values.seed !== 'empty') throw new Error('--seed: must be demo or empty');
  const profile = values.profile;
  if (!isServiceProfile(profile)) throw new Error(`--profile: must be ${SERVICE_PROFILES.join(' or ')}`);
  const dataDir = resolve(values.data);
  const token = values.token ?? randomBytes(24).toString('base64url');
  const app = buildServer({
    dbPath: join(dataDir, 'service.sqlite'),
    filesDir: join(dataDir, 'files'),
    tokens: [token],
    seed: values.seed as SeedKind,
    profile,
    ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
    ...(values['upload-limit'] ? { uploadLimitBytes: Number(values['upload-limit']) } : {}),
  });
  const address = await app.listen({ port, host: values.host });
  const base = (values['base-url'] ?? address).replace(/\/+$/, '');
  process.stdout.write(
    `Work Management Service 2.0 (profile ${profile})\n  base URL: ${base}/2.0\n  token:    ${token}\n  data:     ${dataDir}\n`,
  );
  const stop = () => {
    void app.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
