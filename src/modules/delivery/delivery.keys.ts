import { domainOf } from '../../lib/address-domain.ts';
import type { KeyObject } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { decryptPrivateKey, loadPrivateKey } from '../../mail/dkim-keys.ts';
import { findDomainsFor, type DomainRow } from '../domains/index.ts';
import { domainCandidates } from '../domains/index.ts';

const cache = new Map<string, KeyObject>();
const MAX_KEYS = 1000;

/** The domain's DKIM private key, decrypted once per process (decryption and PEM parsing cost per message otherwise). */
export function dkimKeyOf(ctx: AppContext, domain: DomainRow): KeyObject {
  const cacheKey = `${domain.id}:${domain.dkimSelector}`;
  const hit = cache.get(cacheKey);
  if (hit) return hit;
  const key = loadPrivateKey(decryptPrivateKey(domain.dkimPrivateKey, ctx.secrets.appSecret, domain.id));
  if (cache.size >= MAX_KEYS) cache.delete(cache.keys().next().value!);
  cache.set(cacheKey, key);
  return key;
}

const domains = new Map<string, { row: DomainRow | null; expires: number }>();
const DOMAIN_TTL_MS = 60_000;

/**
 * The project's domain whose key signs mail from `from` (most specific), cached for a minute per process;
 * `fresh` reads it again (before mail is held because of its status).
 */
export async function signingDomainFor(ctx: AppContext, projectId: string, from: string, fresh = false): Promise<DomainRow | null> {
  const key = `${projectId}:${domainOf(from)}`;
  const hit = domains.get(key);
  if (!fresh && hit && hit.expires > Date.now()) return hit.row;
  const [row] = await findDomainsFor(ctx.db, projectId, domainCandidates(from));
  if (!hit && domains.size >= MAX_KEYS) domains.delete(domains.keys().next().value!);
  domains.set(key, { row: row ?? null, expires: Date.now() + DOMAIN_TTL_MS });
  return row ?? null;
}
