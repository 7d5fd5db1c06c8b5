// The sender domains a worker signs with, cached, and their decrypted DKIM keys.
import type { KeyObject } from 'node:crypto';
import type { AppContext } from '../../context.types.ts';
import { listenTo, type Listener } from '../../db/listen.ts';
import { domainOf } from '../../lib/address-domain.ts';
import { decryptPrivateKey, loadPrivateKey } from '../../mail/dkim-keys.ts';
import { DOMAIN_CHANGES_CHANNEL, findSigningDomain, type DomainRow } from '../domains/index.ts';

// Per domain row as read: a changed row is read again as a new object, so a new key is never missed.
const keys = new WeakMap<DomainRow, KeyObject>();

/**
 * The domain's DKIM private key, decrypted once per row read (decryption and PEM parsing cost per message otherwise).
 */
export function dkimKeyOf(ctx: AppContext, domain: DomainRow): KeyObject {
  let key = keys.get(domain);
  if (!key) {
    key = loadPrivateKey(decryptPrivateKey(domain.dkimPrivateKey, ctx.secrets.appSecret, domain.id));
    keys.set(domain, key);
  }
  return key;
}

const MAX_ROWS = 1000;
/** A backstop only: every change to a domain clears the cache at once (DOMAIN_CHANGES_CHANNEL). */
const TTL_MS = 60_000;

/**
 * A worker's signing domains per (project, sender domain), read once and kept until a domain changes: the
 * domains table's trigger NOTIFYs every process of any change (deleted, lapsed, verified, new key), and
 * each cache clears itself when it hears it — so the message after a change is never signed with the old row.
 * The listener starts before the first read; a reconnect after a dropped connection clears the cache too.
 */
export class SigningDomains {
  private readonly rows = new Map<string, { row: DomainRow | null; expires: number }>();
  /** Bumped by every clear: a read that was under way during one must not store what it read. */
  private generation = 0;
  private listener: Promise<Listener> | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly onClear: () => void = () => {},
  ) {}

  /** The project's domain whose key signs mail from `from` (most specific); `fresh` reads it again. */
  async find(projectId: string, from: string, fresh = false): Promise<DomainRow | null> {
    this.listener ??= listenTo(this.ctx.database, DOMAIN_CHANGES_CHANNEL, () => this.clear());
    await this.listener;
    const key = `${projectId}:${domainOf(from)}`;
    const hit = this.rows.get(key);
    if (!fresh && hit && hit.expires > Date.now()) return hit.row;
    const generation = this.generation;
    const row = await findSigningDomain({ db: this.ctx.db, projectId, from });
    if (generation === this.generation) {
      if (!hit && this.rows.size >= MAX_ROWS) this.rows.delete(this.rows.keys().next().value!);
      this.rows.set(key, { row: row ?? null, expires: Date.now() + TTL_MS });
    }
    return row ?? null;
  }

  /** Forgets every row (a domain changed somewhere). */
  clear(): void {
    this.generation++;
    this.rows.clear();
    this.onClear();
  }

  /** Stops listening. */
  async close(): Promise<void> {
    const listener = this.listener;
    this.listener = null;
    await (await listener)?.close();
  }
}
