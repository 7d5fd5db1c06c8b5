// AUTH at the relay: the password is a project's secret key (any user name). Failures are counted per client
// address: five within a minute shut that address out for a minute, so keys cannot be guessed over SMTP. The key
// is checked again at every MAIL FROM, so revoking it or disabling its project stops a session that is open.
import type { Db } from '../../db/client.ts';
import { hashSecret, keyTypeOf } from '../../lib/keys.ts';
import { smtpError } from '../../net/smtp-connections.ts';
import { findKeyByHash } from '../projects/index.ts';

/**
 * Who an AUTH opened the session for: the project, the key (by its hash) and the sender domains it is restricted to.
 */
export interface RelayUser {
  projectId: string;
  keyId: string;
  keyHash: string;
  domainIds: string[] | null;
}

const WINDOW_MS = 60_000;
const MAX_FAILURES = 5;

/** Failed AUTHs per client address within the last minute, and the addresses shut out until a time. */
export class AuthThrottle {
  private readonly failures = new Map<string, number[]>();
  private readonly blocked = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** True while the address is shut out. */
  isBlocked(address: string): boolean {
    const until = this.blocked.get(address);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.blocked.delete(address);
    return false;
  }

  /** Counts a failure; true when it is the one that shuts the address out. */
  fail(address: string): boolean {
    const now = this.now();
    const recent = (this.failures.get(address) ?? []).filter((at) => at > now - WINDOW_MS);
    recent.push(now);
    if (recent.length < MAX_FAILURES) {
      this.failures.set(address, recent);
      if (this.failures.size > 10_000) this.prune(now);
      return false;
    }
    this.failures.delete(address);
    this.blocked.set(address, now + WINDOW_MS);
    return true;
  }

  private prune(now: number): void {
    for (const [address, list] of this.failures)
      if (list.every((at) => at <= now - WINDOW_MS)) this.failures.delete(address);
  }
}

export const THROTTLED = () =>
  smtpError(421, '4.7.0 Too many failed authentication attempts from your address, try again in a minute');

const INVALID =
  '5.7.8 Authentication credentials invalid: the password must be an active secret key (sk_...) of the project';

/**
 * The session a key (by its hash) may send for; throws the SMTP answer for a wrong, public, revoked, expired or
 * read-only key (535) and for a disabled project (535 at AUTH; 421 at MAIL FROM, which ends the session).
 */
async function checkKey(db: Db, keyHash: string, stage: 'AUTH' | 'MAIL'): Promise<RelayUser> {
  const found = await findKeyByHash({ db, keyHash });
  if (!found)
    throw smtpError(
      535,
      stage === 'AUTH' ? INVALID : '5.7.8 Authentication credentials invalid: the key of this session was revoked',
    );
  if (found.key.type !== 'secret')
    throw smtpError(
      535,
      '5.7.8 Authentication credentials invalid: public keys (pk_) cannot send mail, use a secret key (sk_)',
    );
  if (found.project.disabled) {
    if (stage === 'MAIL') throw smtpError(421, '4.7.0 This project was disabled, closing');
    throw smtpError(535, '5.7.8 Authentication credentials invalid: this project is disabled');
  }
  if (found.key.expiresAt && found.key.expiresAt.getTime() <= Date.now())
    throw smtpError(535, '5.7.8 Authentication credentials invalid: this key has expired');
  // The relay sends, so a key with the read scope cannot use it (full and sending keys can).
  if (found.key.scope === 'read')
    throw smtpError(
      535,
      '5.7.8 Authentication credentials invalid: a key with the read scope cannot send, use a full or sending key',
    );
  return { projectId: found.project.id, keyId: found.key.id, keyHash, domainIds: found.key.domainIds };
}

/** The project a password (a secret key) opens at AUTH; throws the SMTP answer when it opens none. */
export async function authenticateKey(db: Db, password: string): Promise<RelayUser> {
  if (!keyTypeOf(password)) throw smtpError(535, INVALID);
  return checkKey(db, hashSecret(password), 'AUTH');
}

/**
 * The session's key checked again before a message (MAIL FROM), with what it may send now (its domains may have
 * changed).
 */
export function recheckKey(db: Db, user: RelayUser): Promise<RelayUser> {
  return checkKey(db, user.keyHash, 'MAIL');
}
