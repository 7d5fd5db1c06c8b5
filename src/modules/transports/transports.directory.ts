// What a sending worker knows of transports: each project's routing, each transport's connection (built once
// from its row, rebuilt when the row changes, its secret unsealed only here) and the circuit breaker's view.
// Routing and rows are read again after a second, so a change reaches every worker within about a second;
// the breaker's view likewise, and at once for changes this worker made.
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import type { RoutingRule, TransportConfig, TransportType } from '../../db/schema/index.ts';
import { DeliveryError, type Transport } from '../../mail/transport.ts';
import { createTransport } from '../../mail/transports/index.ts';
import { readHealth, type TransportHealth } from './transports.health.ts';
import { DEFAULT_TRANSPORT_ID, type Routing } from './transports.route.ts';
import { redactSecrets } from './transports.redact.ts';
import { unsealTransportSecret, type TransportSecret } from './transports.secrets.ts';

const FRESH_MS = 1000;

export interface TransportRow {
  id: string;
  projectId: string;
  name: string;
  type: TransportType;
  config: TransportConfig;
  secret: string | null;
  maxPerSecond: number | null;
  maxConnections: number | null;
  updatedAt: Date;
}

/** A transport ready to take mail. */
export interface UsableTransport {
  key: string;
  projectId: string | null;
  type: TransportType;
  transport: Transport;
  maxPerSecond: number | null;
}

export type DirectoryConfig = Pick<Config, 'dataDir' | 'appSecret' | 'mailTransport' | 'transportTimeouts'> & {
  appSecretPrevious?: string | undefined;
};

/** The connection a stored transport describes (its secret unsealed for it, and cut out of every error it raises). */
export function openTransport(row: TransportRow, config: DirectoryConfig): Transport {
  const secret = unsealTransportSecret(row.secret, config);
  return withoutSecrets(connect(row, config, secret), [secret.password, secret.secretAccessKey], row.config.username);
}

/**
 * The transport with its errors' texts redacted: a relay's reply may quote what it was sent (a refused AUTH echoing
 * the credentials), and those texts reach the email's lastError, the breaker's lastError and webhooks.
 */
function withoutSecrets(transport: Transport, secrets: (string | undefined)[], username?: string): Transport {
  if (!secrets.some(Boolean)) return transport;
  const clean = (error: unknown): never => {
    if (error instanceof DeliveryError) {
      throw new DeliveryError(redactSecrets(error.message, secrets, username), {
        kind: error.kind,
        ...(error.responseCode !== undefined ? { responseCode: error.responseCode } : {}),
        ...(error.enhancedCode !== undefined ? { enhancedCode: error.enhancedCode } : {}),
        suppress: error.suppress,
        ...(error.command !== undefined ? { command: error.command } : {}),
        ...(error.response !== undefined ? { response: redactSecrets(error.response, secrets, username) } : {}),
        connection: error.connection,
      });
    }
    throw new Error(redactSecrets(error instanceof Error ? error.message : String(error), secrets, username));
  };
  return {
    ...transport,
    name: transport.name,
    send: (msg) => transport.send(msg).catch(clean),
    verify: () => transport.verify().catch(clean),
    close: () => transport.close(),
  };
}

function connect(row: TransportRow, config: DirectoryConfig, secret: TransportSecret): Transport {
  const c = row.config;
  if (row.type === 'outbox') return createTransport({ kind: 'outbox', outboxDir: path.join(config.dataDir, 'outbox') });
  if (row.type === 'ses') {
    return createTransport({
      kind: 'ses',
      ses: {
        region: c.region ?? '',
        ...(c.endpoint ? { endpoint: c.endpoint } : {}),
        ...(c.accessKeyId && secret.secretAccessKey
          ? { accessKeyId: c.accessKeyId, secretAccessKey: secret.secretAccessKey }
          : {}),
        requestTimeoutMs: 30_000,
      },
    });
  }
  const url = new URL(`${c.secure ? 'smtps' : 'smtp'}://localhost`);
  url.hostname = c.host?.includes(':') ? `[${c.host}]` : (c.host ?? '');
  if (c.port) url.port = String(c.port);
  if (c.username !== undefined) url.username = encodeURIComponent(c.username);
  if (secret.password !== undefined) url.password = encodeURIComponent(secret.password);
  return createTransport({
    kind: 'smtp',
    smtpUrl: url.toString(),
    smtp: {
      ...(row.maxConnections ? { maxConnections: row.maxConnections } : {}),
      connectionTimeoutMs: config.transportTimeouts.connectSeconds * 1000,
      greetingTimeoutMs: config.transportTimeouts.greetingSeconds * 1000,
    },
  });
}

interface CachedRow {
  row: TransportRow | null;
  at: number;
}

export class TransportDirectory {
  private readonly rows = new Map<string, CachedRow>();
  private readonly open = new Map<string, { updatedAt: number; usable: UsableTransport }>();
  private health = new Map<string, TransportHealth>();
  private healthAt = 0;

  constructor(
    private readonly db: Executor,
    private readonly config: DirectoryConfig,
    private readonly defaultTransport: Transport,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Each project's routing (null: it set none, every email takes `default`), read afresh: a change applies from the
   * next batch on.
   */
  async routings(projectIds: string[]): Promise<Map<string, Routing | null>> {
    const out = new Map<string, Routing | null>(projectIds.map((id) => [id, null]));
    if (projectIds.length === 0) return out;
    const result = await this.db.execute(sql`
      SELECT project_id::text AS project_id, rules, default_transport_id FROM routing
      WHERE project_id IN (${sql.join(
        projectIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`);
    for (const row of rowsOf<{ project_id: string; rules: RoutingRule[]; default_transport_id: string }>(result)) {
      out.set(row.project_id, { rules: row.rules, defaultTransportId: row.default_transport_id });
    }
    return out;
  }

  /** The transport under this key, ready to send; null when it no longer exists. */
  async transport(key: string): Promise<UsableTransport | null> {
    if (key === DEFAULT_TRANSPORT_ID) {
      return {
        key,
        projectId: null,
        type: this.config.mailTransport,
        transport: this.defaultTransport,
        maxPerSecond: null,
      };
    }
    const row = await this.row(key);
    if (!row) {
      this.closeOpen(key);
      return null;
    }
    const existing = this.open.get(key);
    if (existing && existing.updatedAt === row.updatedAt.getTime()) return existing.usable;
    this.closeOpen(key);
    const usable: UsableTransport = {
      key,
      projectId: row.projectId,
      type: row.type,
      transport: openTransport(row, this.config),
      maxPerSecond: row.maxPerSecond,
    };
    this.open.set(key, { updatedAt: row.updatedAt.getTime(), usable });
    return usable;
  }

  /** The name and type of the transport under this key (without opening it); null when it no longer exists. */
  async describe(key: string): Promise<{ name: string; type: TransportType } | null> {
    if (key === DEFAULT_TRANSPORT_ID) return { name: DEFAULT_TRANSPORT_ID, type: this.config.mailTransport };
    const row = await this.row(key);
    return row ? { name: row.name, type: row.type } : null;
  }

  /** The breaker's state of each key, as of at most a second ago. */
  async states(keys: string[]): Promise<Map<string, TransportHealth>> {
    const missing = keys.some((k) => !this.health.has(k));
    if (missing || this.now() - this.healthAt >= FRESH_MS) {
      const all = [...new Set([...this.health.keys(), ...keys])];
      this.health = await readHealth(this.db, all);
      this.healthAt = this.now();
    }
    return this.health;
  }

  /** Forget the breaker's view, so the next look reads it (after this worker changed it). */
  staleStates(): void {
    this.healthAt = 0;
  }

  private async row(key: string): Promise<TransportRow | null> {
    const cached = this.rows.get(key);
    if (cached && this.now() - cached.at < FRESH_MS) return cached.row;
    const result = await this.db.execute(sql`
      SELECT id::text, project_id::text AS "projectId", name, type, config, secret,
        max_per_second AS "maxPerSecond", max_connections AS "maxConnections", updated_at AS "updatedAt"
      FROM transports WHERE id::text = ${key}`);
    const raw = rowsOf<TransportRow & { updatedAt: Date | string }>(result)[0];
    const row = raw
      ? {
          ...raw,
          maxPerSecond: raw.maxPerSecond === null ? null : Number(raw.maxPerSecond),
          updatedAt: new Date(raw.updatedAt),
        }
      : null;
    this.rows.set(key, { row, at: this.now() });
    return row;
  }

  private closeOpen(key: string): void {
    const existing = this.open.get(key);
    if (!existing) return;
    this.open.delete(key);
    // Messages in flight on it finish first: close() lets busy connections end after their message.
    void existing.usable.transport.close().catch(() => {});
  }

  /** Closes the transports it opened (not the instance's own). */
  async close(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.allSettled(all.map((o) => o.usable.transport.close()));
  }
}
