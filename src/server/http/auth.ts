import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { refused } from './errors';
import type { Method } from './router';

/** The shortest token the team server starts with: shorter ones can be guessed. */
export const MIN_TOKEN_LENGTH = 16;

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The user a per-user token may act as; null for the organization-wide token (and for the
     * routes that need no token).
     */
    tokenUserId: string | null;
  }
}

/** What a presented token grants: the whole organization (`userId` null) or one user. */
export interface TokenGrant {
  userId: string | null;
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * Checks a presented token against every configured one in constant time: each comparison is
 * of two SHA-256 digests with `timingSafeEqual`, and every token is compared whatever matched,
 * so neither a token's content nor its position is learnt from the time an answer takes.
 */
export function tokenChecker(
  orgTokens: readonly string[],
  userTokens: Readonly<Record<string, string>> = {},
): (presented: string) => TokenGrant | undefined {
  const entries = [
    ...orgTokens.map((token) => ({ hash: digest(token), userId: null })),
    ...Object.entries(userTokens).map(([userId, token]) => ({ hash: digest(token), userId })),
  ];
  return (presented) => {
    const hash = digest(presented);
    let grant: TokenGrant | undefined;
    for (const entry of entries) {
      if (timingSafeEqual(hash, entry.hash) && !grant) grant = { userId: entry.userId };
    }
    return grant;
  };
}

/**
 * The body fields that name who performs a write. A per-user token may name only its own user
 * there. `userId` names the acting user everywhere but on POST /events, where it is the person
 * a personal event is for.
 */
const ACTING_FIELDS = ['userId', 'fromUserId', 'createdByUserId', 'updatedByUserId'] as const;
const ACTING_FIELDS_BY_ROUTE: Record<string, readonly string[]> = {
  'POST /events': ['createdByUserId'],
};

/** Refuses (403) a write whose acting user is not the per-user token's own user. */
export function checkActingUser(method: Method, url: string, request: FastifyRequest, body: unknown): void {
  const own = request.tokenUserId;
  if (own === null || method === 'GET' || !body || typeof body !== 'object') return;
  const fields = ACTING_FIELDS_BY_ROUTE[`${method} ${url}`] ?? ACTING_FIELDS;
  for (const field of fields) {
    const value = (body as Record<string, unknown>)[field];
    if (value !== undefined && value !== null && value !== own) {
      throw refused(`${field}: this token acts only as user ${JSON.stringify(own)}`);
    }
  }
}
