import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { LIMITS, TOKEN_HEADERS } from '../shared/api/common';
import { createContext, type ServiceContext } from './context';
import { openDatabase, type Db } from './db/open';
import { tokenChecker } from './http/auth';
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
import { timeReportRoutes } from './routes/time-reports';
import { seedDatabase, type SeedSpec } from './seed/index';

export interface ServerOptions {
  /** SQLite file (created and migrated when missing), or ':memory:'. */
  dbPath: string;
  /** Folder for uploaded file bytes. */
  filesDir: string;
  /** Accepted organization-wide API tokens (any one of them): they may act as any user. */
  tokens: readonly string[];
  /**
   * Extension: per-user tokens, user id to token. A request with one may act only as that user
   * (the acting-user fields of a write must name it); reads are as with the organization token.
   */
  userTokens?: Readonly<Record<string, string>>;
  /** Serve HTTPS with this certificate and key (PEM). */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** Time-outs, ms; each has a default (`DEFAULT_TIMEOUTS`). */
  timeouts?: Partial<Timeouts>;
  /** Told of every 5xx answer (method, path without its query, the error); default stderr. */
  logServerError?: (message: string) => void;
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
  seed?: SeedSpec;
  /**
   * How answers look: `spec` (default) the spec's full shape with our extensions; `goodday` as
   * GoodDay's live service answers (`src/server/profiles.ts`).
   */
  profile?: ServiceProfileName;
}

export interface Timeouts {
  /** To receive a request's headers. */
  headersMs: number;
  /** To receive a whole request, body included (uploads of up to 100 MiB on a slow link). */
  requestMs: number;
  /** A connection with no traffic at all is closed after this. */
  idleMs: number;
  /** An idle kept-alive connection between requests. */
  keepAliveMs: number;
}

/** Without limits a client that sends slowly or not at all holds a connection for ever. */
export const DEFAULT_TIMEOUTS: Timeouts = {
  headersMs: 20_000,
  requestMs: 10 * 60_000,
  idleMs: 2 * 60_000,
  keepAliveMs: 5_000,
};

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
  for (const userId of Object.keys(options.userTokens ?? {})) {
    if (!ctx.org.isUser(userId)) {
      db.close();
      throw new Error(`userTokens: no user with id ${JSON.stringify(userId)}`);
    }
  }
  const checkToken = tokenChecker(options.tokens, options.userTokens);
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const logServerError =
    options.logServerError ?? ((message: string) => void process.stderr.write(`${message}\n`));
  // Node checks the header and request time-outs on this period; a fraction of the shortest.
  const serverOptions = {
    connectionsCheckingInterval: Math.max(10, Math.min(30_000, Math.floor(timeouts.headersMs / 4))),
    headersTimeout: timeouts.headersMs,
  };

  // With TLS, Fastify types the app for an HTTPS server; routes and hooks are the same.
  const app = Fastify({
    ...(options.tls
      ? { https: { ...serverOptions, cert: options.tls.cert, key: options.tls.key } }
      : { http: serverOptions }),
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    logger: options.logger ?? false,
    bodyLimit: LIMITS.requestBodyBytes,
    // Clients keep connections alive; closing (tests, an account switch, quit) must not wait on them.
    forceCloseConnections: true,
    routerOptions: { ignoreDuplicateSlashes: true, ignoreTrailingSlash: true, maxParamLength: 500 },
    // A malformed URL (bad percent-encoding and the like) is the client's fault: answer 400.
    frameworkErrors: (error, _request, reply) => {
      void (reply as FastifyReply).code(400).send({ errorMessage: `bad request: ${error.message}` });
    },
  }) as unknown as FastifyInstance;
  app.decorateRequest('tokenUserId', null);

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
      const grant = typeof value === 'string' ? checkToken(value) : undefined;
      if (grant) {
        request.tokenUserId = grant.userId;
        return done();
      }
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
    // The path only: a query string may carry the token.
    const path = request.url.split('?')[0] ?? '';
    logServerError(`${request.method} ${path} answered 500: ${error.stack ?? error.message}`);
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
  timeReportRoutes(router, ctx);

  return { app, db, ctx };
}
