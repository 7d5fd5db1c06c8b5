// Picks the transport named by configuration (MAIL_TRANSPORT); callers only ever see the Transport interface.
import type { Transport } from '../transport.ts';
import { createOutboxTransport } from './outbox.ts';
import { createSesTransport } from './ses.ts';
import type { SesTransportOptions } from './ses.ts';
import { createSmtpTransport } from './smtp.ts';
import type { SmtpTransportOptions } from './smtp.ts';

export type TransportKind = 'outbox' | 'smtp' | 'ses';

export interface CreateTransportOptions {
  kind: TransportKind;
  /** Required for outbox. */
  outboxDir?: string;
  /** Required for smtp. */
  smtpUrl?: string;
  smtp?: Omit<SmtpTransportOptions, 'url'>;
  /** Required for ses. */
  ses?: SesTransportOptions;
}

// One factory so config.ts decides the transport once and the worker never branches on it.
export function createTransport(options: CreateTransportOptions): Transport {
  switch (options.kind) {
    case 'outbox':
      if (!options.outboxDir) throw new Error('outbox transport needs outboxDir');
      return createOutboxTransport({ dir: options.outboxDir });
    case 'smtp':
      if (!options.smtpUrl) throw new Error('smtp transport needs smtpUrl');
      return createSmtpTransport({ ...options.smtp, url: options.smtpUrl });
    case 'ses':
      if (!options.ses?.region) throw new Error('ses transport needs a region');
      return createSesTransport(options.ses);
    default:
      throw new Error(`unknown mail transport ${JSON.stringify((options as { kind: unknown }).kind)}`);
  }
}

export { createOutboxTransport, createSesTransport, createSmtpTransport };
export type { SesTransportOptions, SmtpTransportOptions };
