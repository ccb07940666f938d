import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { LIMITS, TOKEN_HEADERS } from '../shared/api/index';
import { createContext, type ServiceContext } from './context';
import { openDatabase, type Db } from './db/open';
import { ApiError } from './http/errors';
import { API_PREFIX, Router } from './http/router';
import { createProfile, profileIds, type ServiceProfileName } from './profiles';
import { attachmentRoutes } from './routes/attachments';
import { crmRoutes } from './routes/crm';
import { customFieldRoutes } from './routes/custom-fields';
import { dependencyRoutes } from './routes/dependencies';
import { documentRoutes } from './routes/documents';
import { eventRoutes } from './routes/events';
import { historyRoutes } from './routes/history';
import { memberRoutes } from './routes/members';
import { messageRoutes } from './routes/messages';
import { orgRoutes } from './routes/org';
import { projectRoutes } from './routes/projects';
import { taskRoutes } from './routes/tasks';
import { seedDatabase, type SeedKind } from './seed/index';

export interface ServerOptions {
  /** SQLite file (created and migrated when missing), or ':memory:'. */
  dbPath: string;
  /** Folder for uploaded file bytes. */
  filesDir: string;
  /** Accepted API tokens (any one of them). */
  tokens: readonly string[];
  clock?: () => Date;
  /** Id source; tests pass a deterministic one. */
  newId?: () => string;
  /**
   * Public address the upload URLs are built on (e.g. `http://10.0.0.5:8080`, with or without
   * `/2.0`); when omitted, the request's own Host is used.
   */
  baseUrl?: string;
  /** Cap of one uploaded file, bytes; default 100 MiB. */
  uploadLimitBytes?: number;
  /** Fastify logger; off by default. */
  logger?: boolean;
  /** Seed a database that has no organization yet. */
  seed?: SeedKind;
  /**
   * How answers look: `spec` (default) the spec's full shape with our extensions; `goodday` as
   * GoodDay's live service answers (`src/server/profiles.ts`).
   */
  profile?: ServiceProfileName;
}

export interface Service {
  app: FastifyInstance;
  db: Db;
  ctx: ServiceContext;
}

export { API_PREFIX };

/** Builds the Work Management Service 2.0 as a Fastify app; the database closes with the app. */
export function buildServer(options: ServerOptions): FastifyInstance {
  return buildService(options).app;
}

/** Like buildServer, also exposing the database and context (seeds, tests, benchmarks). */
export function buildService(options: ServerOptions): Service {
  if (options.dbPath !== ':memory:') mkdirSync(dirname(options.dbPath), { recursive: true });
  mkdirSync(options.filesDir, { recursive: true });
  const db = openDatabase(options.dbPath);
  const profileName = options.profile ?? 'spec';
  const ctx = createContext({
    db,
    clock: options.clock ?? (() => new Date()),
    newId: options.newId ?? profileIds(profileName),
    filesDir: options.filesDir,
    uploadLimitBytes: options.uploadLimitBytes ?? LIMITS.defaultUploadBytes,
    // Accepted with or without the version segment; upload URLs add `/2.0` themselves.
    baseUrl: options.baseUrl?.replace(/\/+$/, '').replace(/\/2\.0$/, ''),
  });
  if (options.seed) seedDatabase(db, options.seed, ctx.clock());
  const tokens = new Set(options.tokens);

  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: LIMITS.requestBodyBytes,
    // Clients keep connections alive; closing (tests, an account switch, quit) must not wait on them.
    forceCloseConnections: true,
    routerOptions: { ignoreDuplicateSlashes: true, ignoreTrailingSlash: true, maxParamLength: 500 },
    // A malformed URL (bad percent-encoding and the like) is the client's fault: answer 400.
    frameworkErrors: (error, _request, reply) => {
      void (reply as FastifyReply).code(400).send({ errorMessage: `bad request: ${error.message}` });
    },
  });

  // The spec does not say whether read parameters travel in the query or a body, so GET
  // bodies are parsed too; the query wins when both carry a parameter.
  app.addHttpMethod('GET', { hasBody: true, overrideExisting: true });

  app.addHook('onClose', () => {
    db.close();
  });

  // Bodies: JSON whatever the declared type (real clients send JSON bodies on DELETE, sometimes
  // with a text type); an empty body is no body.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, text, done) => {
    const source = String(text);
    if (source.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(source) as unknown);
    } catch {
      done(new ApiError(400, 'body: is not valid JSON'), undefined);
    }
  });

  // Authentication: the token in `svc-api-token` or `gd-api-token`, as a header or a query
  // parameter. Upload addresses are their own secret (the spec sends no token with them).
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config && (request.routeOptions.config as { public?: boolean }).public)
      return done();
    const query = request.query as Record<string, unknown> | undefined;
    for (const name of TOKEN_HEADERS) {
      const header = request.headers[name];
      const value = typeof header === 'string' ? header : query?.[name];
      if (typeof value === 'string' && tokens.has(value)) return done();
    }
    void reply.code(401).send({ errorMessage: 'missing or wrong API token (svc-api-token header)' });
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      void reply.code(error.statusCode).send({ errorMessage: error.message });
      return;
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      const message =
        status === 413
          ? `request body too large (limit ${LIMITS.requestBodyBytes} bytes)`
          : error.message || 'bad request';
      void reply.code(status).send({ errorMessage: message });
      return;
    }
    request.log.error(error);
    void reply.code(500).send({ errorMessage: 'internal error' });
  });

  const router = new Router(app, db, API_PREFIX, createProfile(profileName, ctx));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = router.allowedMethods(path);
    if (allowed.length > 0) {
      void reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send({
          errorMessage: `method ${request.method} not allowed on this path; use ${allowed.join(', ')}`,
        });
      return;
    }
    void reply.code(404).send({ errorMessage: `no such path: ${request.method} ${path.slice(0, 200)}` });
  });

  orgRoutes(router, ctx);
  customFieldRoutes(router, ctx);
  projectRoutes(router, ctx);
  memberRoutes(router, ctx);
  historyRoutes(router, ctx);
  documentRoutes(router, ctx);
  taskRoutes(router, ctx);
  messageRoutes(router, ctx);
  attachmentRoutes(app, router, ctx);
  crmRoutes(router, ctx);
  dependencyRoutes(router, ctx);
  eventRoutes(router, ctx);

  return { app, db, ctx };
}
