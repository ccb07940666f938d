import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../../shared/api/common';
import { UploadUrlsBody, type UploadUrl } from '../../shared/api/attachments';
import type { ServiceContext } from '../context';
import { ApiError, notFound } from '../http/errors';
import { listeningOrigin } from '../http/origin';
import { API_PREFIX, type Router } from '../http/router';
import { mimeOf } from './attachments-resolve';

/** Where the bytes of a file live; file ids are generated, never taken from a request path. */
function filePath(ctx: ServiceContext, fileId: string): string {
  return join(ctx.filesDir, fileId);
}

/**
 * The headers of an attachment's bytes: a download (`attachment`, the name in RFC 6266's UTF-8
 * form with an ASCII fallback), the stored type never sniffed into another, and a policy that
 * runs nothing should the bytes be shown anyway (a sandbox with no script, no plugin, no frame).
 */
function rfc5987(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export function downloadHeaders(name: string, mime: string, size: number): Record<string, string> {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return {
    'content-type': mime,
    'content-length': String(size),
    'content-disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(name)}`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': 'private, no-cache',
  };
}

/** Copies the request body to `target`, refusing more than `limit` bytes with a 413. */
async function receive(stream: Readable, target: string, limit: number): Promise<number> {
  let size = 0;
  let settled = false;
  const out = createWriteStream(target);
  try {
    await new Promise<void>((resolveBody, rejectBody) => {
      // Once the body is refused or aborted, chunks still buffered (or resumed by a late
      // 'drain') must not reach the destroyed file stream.
      const resolve = (): void => {
        settled = true;
        resolveBody();
      };
      const reject = (err: unknown): void => {
        settled = true;
        rejectBody(err);
      };
      out.on('error', reject);
      stream.on('data', (chunk: Buffer) => {
        if (settled) return;
        size += chunk.length;
        if (size > limit) {
          stream.pause();
          reject(new ApiError(413, `upload too large (limit ${limit} bytes)`));
          return;
        }
        if (!out.write(chunk)) {
          stream.pause();
          out.once('drain', () => {
            if (!settled) stream.resume();
          });
        }
      });
      stream.on('end', () => resolve());
      stream.on('error', reject);
      // A client that hangs up mid-upload: nothing is kept (a settled promise ignores this).
      stream.on('close', () => reject(new ApiError(400, 'upload aborted before the end of the body')));
    });
    await new Promise<void>((resolve, reject) =>
      out.end((err?: Error | null) => (err ? reject(err) : resolve())),
    );
    return size;
  } catch (err) {
    out.destroy();
    await rm(target, { force: true });
    throw err;
  }
}

/** GET /attachments/{fileId} (extension): a file's bytes, as a download. */
function downloadRoute(app: FastifyInstance, r: Router, ctx: ServiceContext): void {
  r.remember('GET', '/attachments/:id');
  app.get(`${API_PREFIX}/attachments/:id`, async (request, reply) => {
    const id = (request.params as { id: string }).id;
    const upload = ctx.uploads.byFileId(id);
    if (!upload || upload.uploaded_at === null) throw notFound('attachment', id);
    const path = filePath(ctx, upload.file_id);
    // Bytes removed from filesDir behind the service's back: say so rather than fail mid-stream.
    let size: number;
    try {
      size = (await stat(path)).size;
    } catch {
      throw notFound('attachment file', id);
    }
    return reply
      .code(200)
      .headers(downloadHeaders(upload.name, upload.mime, size))
      .send(createReadStream(path));
  });
}

/**
 * The three-step upload: POST /attachments/upload-urls reserves addresses (unguessable,
 * single-use, one hour); PUT {uploadUrl} stores the bytes under filesDir; the fileId is then
 * referenced by create-task, comment or reply. GET /attachments/{fileId} (extension) serves them
 * as downloads.
 */
export function attachmentRoutes(app: FastifyInstance, r: Router, ctx: ServiceContext): void {
  r.post('/attachments/upload-urls', {
    body: UploadUrlsBody,
    handle: ({ body, request }) => {
      const base = ctx.baseUrl ?? listeningOrigin(request);
      const expires = ctx.clock().getTime() + LIMITS.uploadUrlLifetimeMs;
      const json: UploadUrl[] = body.files.map((file) => {
        const row = {
          file_id: ctx.newId(),
          token: ctx.newSecret(),
          name: file.name,
          mime: mimeOf(file.name),
          expires_at: expires,
          uploaded_at: null,
          size: null,
        };
        ctx.uploads.insert(row);
        return {
          fileId: row.file_id,
          name: row.name,
          uploadUrl: `${base}${API_PREFIX}/uploads/${row.token}`,
          mime: row.mime,
        };
      });
      return { json };
    },
  });

  // Extension: the spec shows no download. The bytes are served as a download, never as a page
  // of ours: whatever a file holds (HTML, SVG, script), a browser that follows this address saves
  // it rather than running it at the service's origin. The goodday profile has none, as live.
  if (r.offers('GET', '/attachments/:id')) downloadRoute(app, r, ctx);

  r.remember('PUT', '/uploads/:token');
  // The upload route reads raw bytes of any type, so it lives in its own plugin with its own parser.
  void app.register((instance, _opts, done) => {
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser('*', (_request, payload, next) => next(null, payload));
    instance.put(`${API_PREFIX}/uploads/:token`, { config: { public: true } }, async (request, reply) => {
      const token = (request.params as { token: string }).token;
      const check = () => {
        const upload = ctx.uploads.byToken(token);
        if (!upload || upload.uploaded_at !== null)
          throw notFound('upload address', 'unknown or already used');
        if (upload.expires_at < ctx.clock().getTime()) throw notFound('upload address', 'expired');
        return upload;
      };
      const upload = check();
      const declared = Number(request.headers['content-length'] ?? 0);
      if (declared > ctx.uploadLimitBytes)
        throw new ApiError(413, `upload too large (limit ${ctx.uploadLimitBytes} bytes)`);
      const temp = `${filePath(ctx, upload.file_id)}.part-${ctx.newSecret().slice(0, 8)}`;
      const stream = (request.body as Readable | undefined) ?? request.raw;
      const size = await receive(stream, temp, ctx.uploadLimitBytes);
      try {
        ctx.db.transaction(() => {
          check();
          ctx.uploads.complete(upload.file_id, ctx.now(), size);
        })();
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
      await rename(temp, filePath(ctx, upload.file_id));
      reply.code(200).send();
    });
    done();
  });
}
