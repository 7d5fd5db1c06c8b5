import type { KeyObject } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { decryptPrivateKey, loadPrivateKey } from '../../mail/dkim-keys.ts';
import type { DomainRow } from '../domains/domains.repo.ts';

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
