// The context every request handler, job and poller is handed: built once per process (src/context.ts) and
// passed in, never global. A leaf of the import graph: it names infrastructure types only, so any file may
// import it without pulling a module, the queue's jobs or the app in behind it.
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from './config.ts';
import type { ProcessResources } from './lib/process-resources.ts';
import type { Database, Db, Executor } from './db/client.ts';
import type { ConsentAction, ConsentSourceType } from './db/schema/index.ts';
import type { Transport } from './mail/transport.ts';
import type { DnsClient } from './net/dns.ts';
import type { Mailbox } from './net/smtp-listener.ts';
import type { SafeHttpClient } from './net/safe-http.ts';
import type { AnyPoller } from './queue/poller.ts';
import type { JobQueue } from './queue/queue.ts';
import type { AnyJob } from './queue/registry.ts';

export interface AppContext {
  config: Readonly<Config>;
  database: Database;
  db: Db;
  queue: JobQueue;
  logger: Logger;
  secrets: Secrets;
  /** Cached resolver through DNS_SERVERS (address verification). */
  dns: DnsClient;
  /** Uncached resolver through DNS_SERVERS (domain checks must see a record the moment it is published). */
  dnsFresh: DnsClient;
  /** Where finished messages go: outbox, SMTP or SES. */
  transport: Transport;
  /** HTTP to customer URLs (workflow WEBHOOK steps, webhooks out): SSRF-checked, pinned to the checked address. */
  outbound: SafeHttpClient;
  /** Prometheus metrics of this process (GET /metrics). */
  metrics: Registry;
  /**
   * What other modules' rows say about deleting a resource (a workflow's step naming a segment) or turning a segment's
   * tracking off.
   */
  references: References;
  /**
   * What other modules keep of a contact being deleted (its address in the email records), erased in the same
   * transaction.
   */
  erasure: Erasure;
  holds: Holds;
  /** Thread pools and caches of this process, made on first use and closed with the context. */
  resources: ProcessResources;
}

/**
 * What other modules' rows may rely on: resources they name, and so keep from being deleted, and
 * `segmentTracking`, a segment's membership tracking, which its SEGMENT_ENTERED / SEGMENT_EXITED triggers keep on.
 */
export type ReferenceKind = 'segment' | 'template' | 'topic' | 'layout' | 'segmentTracking';

/** Why a resource cannot be deleted or changed so (a 409): who relies on it, and what to do. */
export interface Blocker {
  message: string;
  suggestion?: string;
}

/**
 * A module's answer to "does anything of yours still need this resource (or its tracking)?", in the deleting or
 * changing transaction.
 */
export type ReferenceCheck = (opts: { db: Executor; projectId: string; id: string }) => Promise<Blocker | null>;

/** A template as a change would leave it (PATCH /templates/{id}), asked in the changing transaction. */
export interface TemplateAfterChange {
  db: Executor;
  projectId: string;
  id: string;
  body: string;
  fromEmail: string | null;
}

/** A module's answer to "may this template change so?" (settings: the confirmation email keeps its link and sender). */
export type TemplateChangeCheck = (opts: TemplateAfterChange) => Promise<Blocker | null>;

/**
 * A layout changed (its body or format), or the project's default layout did (`layoutId` null): a module whose rows
 * keep content compiled in a layout compiles them again, in the changing transaction.
 */
export interface LayoutChanged {
  db: Executor;
  projectId: string;
  /** The layout that changed; null when the project's default layout changed (set, cleared or replaced). */
  layoutId: string | null;
}

export type LayoutChange = (opts: LayoutChanged) => Promise<void>;

export interface References {
  /** The first module (src/modules.ts order) whose rows still need the resource, or null. */
  blockerOf(kind: ReferenceKind, opts: { db: Executor; projectId: string; id: string }): Promise<Blocker | null>;
  /** The first module (src/modules.ts order) that relies on what the template would no longer hold, or null. */
  templateChangeBlocker(opts: TemplateAfterChange): Promise<Blocker | null>;
  /** Runs every module's recompile of what uses a layout (src/modules.ts order) in the caller's transaction. */
  layoutChanged(opts: LayoutChanged): Promise<void>;
}

/** Contacts being deleted, as a module's erasure gets them (a single delete, or a bulk delete's batch). */
export interface ErasedContacts {
  db: Executor;
  projectId: string;
  contacts: { id: string; email: string }[];
}

/**
 * A module's part of deleting contacts: it removes their addresses from its own rows, in the deleting transaction, as
 * one set.
 */
export type ContactErasure = (opts: ErasedContacts) => Promise<void>;

/** Where a change of a contact's consent comes from (the consent ledger's source). */
export interface ConsentSource {
  type: ConsentSourceType;
  /** The form, import, bulk action, workflow or complaint's email the change came through. */
  id?: string | null | undefined;
  /** The email whose link led to the change: an unsubscribe counts in its campaign's figures. */
  emailId?: string | null | undefined;
  /** The wording the person agreed to (a form's consent text). */
  text?: string | null | undefined;
  /** The client's address and user agent; the request's when not given, none when null. */
  client?: { ip: string | null; userAgent: string | null } | null | undefined;
}

/** One change the consent ledger records. */
export interface ConsentEntry {
  contactId: string;
  action: ConsentAction;
  topicId?: string | undefined;
}

/** A module's part of a recorded consent change, in its transaction (emails: an unsubscribe counts per campaign). */
export type ConsentFollowUp = (opts: {
  db: Executor;
  projectId: string;
  source: ConsentSource;
  entries: ConsentEntry[];
}) => Promise<void>;

export interface Erasure {
  /** Runs every module's contact erasure (src/modules.ts order) in the caller's transaction. */
  eraseContacts(opts: ErasedContacts): Promise<void>;
}

/** Why work waits without failing: its project is disabled, or its sender domain is not verified (within its grace). */
export type HoldCause = 'PROJECT_DISABLED' | 'DOMAIN_NOT_VERIFIED' | 'WARMUP_CHANGED';

export interface HoldLifted {
  db: Executor;
  projectId: string;
  cause: HoldCause;
}

/** What a module does when a hold's cause goes away (the project enabled, the sender domain verified again). */
export type HoldRelease = (opts: HoldLifted) => Promise<void>;

export interface Holds {
  /** Lets every module's work held for `cause` go on; call it in the transaction of the change. */
  release(opts: HoldLifted): Promise<void>;
}

export interface Secrets {
  appSecret: string;
  adminToken: string;
}

/** What the app hands a module's routes besides the context (the auth plugin's key cache, cleared when keys change). */
export interface RouteHost {
  clearKeyCache(): void;
}

/** A network listener a module runs in background roles (the bounce receiver), stopped at shutdown. */
export interface RunningServer {
  /** Where it listens, for the start banner: what it is (`SMTP relay`), its address and what it takes. */
  listening?: { label: string; host: string; port: number; note?: string };
  close(): Promise<void>;
}

/**
 * Where a module's mailbox listens: mailboxes on the same port share one SMTP listener (the first one's host and
 * connection bounds, in src/modules.ts order), whose RCPT gives each recipient to the first mailbox that takes it.
 */
export interface MailboxPlan {
  port: number;
  host: string;
  maxClients: number;
  maxClientsPerAddress: number;
  mailbox: Mailbox;
}

/**
 * A module's manifest (`<name>.module.ts`): what it adds to a process. src/modules.ts lists them; the app
 * registers their routes, the context runs their jobs and pollers, background roles start their servers.
 */
export interface ModuleManifest {
  name: string;
  /**
   * Hooks the module adds to every route of the app (the request log's capture), before any route is registered;
   * they must not change a request or its answer.
   */
  hooks?: ((ctx: AppContext, app: FastifyInstance) => void)[];
  routes?: ((ctx: AppContext, host: RouteHost) => FastifyPluginAsyncZod)[];
  jobs?: AnyJob[];
  pollers?: AnyPoller[];
  /** Listeners started in `serve` and `worker` processes; null when its configuration leaves it off. */
  servers?: ((ctx: AppContext) => Promise<RunningServer | null>)[];
  /** SMTP recipients the module takes (started in `serve` and `worker` processes); null when its port is unset. */
  mailboxes?: ((ctx: AppContext) => MailboxPlan | null)[];
  /**
   * The module's checks of other modules' resources it names (a workflow: segments, topics and templates, and the
   * tracking of its trigger's segment).
   */
  references?: Partial<Record<ReferenceKind, ReferenceCheck>>;
  /** The module's check of a template change (what it relies on a template it names to hold). */
  templateChange?: TemplateChangeCheck;
  /** What the module compiles again when a layout it uses changes (templates: their content in the layout). */
  layoutChange?: LayoutChange;
  /** What the module erases of a deleted contact (delivery: the address in the contact's email records). */
  contactErasure?: ContactErasure;
  /** What the module does when consent changes are recorded (emails: count an unsubscribe in its campaign). */
  consentRecorded?: ConsentFollowUp;
  /** What the module lets go on when a hold's cause goes away (emails: held mail is due again). */
  releaseHolds?: HoldRelease;
}
