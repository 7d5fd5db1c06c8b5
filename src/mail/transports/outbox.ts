// Default transport: the fully built message is written to `<dir>/<emailId>.eml` and nothing leaves the machine.
import { constants } from 'node:fs';
import { access, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DeliveryError } from '../transport.ts';
import type { TransportMessage, TransportResult, Transport } from '../transport.ts';

export interface OutboxTransportOptions {
  /** Usually `DATA_DIR/outbox`; created on first send. */
  dir: string;
}

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

// Writes to a temp file, fsyncs, then renames: a reader never sees a half-written .eml, and a retry overwrites.
export function createOutboxTransport(options: OutboxTransportOptions): Transport {
  const dir = path.resolve(options.dir);
  let ensured: Promise<unknown> | null = null;

  return {
    name: 'outbox',
    async send(msg: TransportMessage): Promise<TransportResult> {
      if (!SAFE_ID.test(msg.emailId)) {
        throw new DeliveryError(`invalid email id for an outbox file name: ${JSON.stringify(msg.emailId)}`, {
          kind: 'permanent',
        });
      }
      const target = path.join(dir, `${msg.emailId}.eml`);
      const temp = path.join(dir, `.${msg.emailId}.${randomBytes(6).toString('hex')}.tmp`);
      try {
        ensured ??= mkdir(dir, { recursive: true });
        await ensured;
        const handle = await open(temp, 'wx', 0o640);
        try {
          await handle.writeFile(msg.raw);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(temp, target);
      } catch (err) {
        ensured = null;
        await unlink(temp).catch(() => undefined);
        // A full disk or a permissions problem can be fixed; retry rather than lose the email. The
        // message names the error code, not the path: it reaches the API (lastError); the cause keeps it for the logs.
        const { code, syscall } = err as NodeJS.ErrnoException;
        throw new DeliveryError(`outbox write failed: ${code ?? 'error'}${syscall ? ` (${syscall})` : ''}`, {
          kind: 'temporary',
          cause: err,
        });
      }
      // The status reason the API shows: where in DATA_DIR the message is, never the server's file system.
      return { response: `outbox/${msg.emailId}.eml` };
    },
    async readMessage(emailId: string): Promise<Buffer | null> {
      if (!SAFE_ID.test(emailId)) return null;
      try {
        return await readFile(path.join(dir, `${emailId}.eml`));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async verify(): Promise<void> {
      try {
        await mkdir(dir, { recursive: true });
        await access(dir, constants.W_OK);
      } catch (err) {
        const { code } = err as NodeJS.ErrnoException;
        throw new DeliveryError(`outbox is not writable: ${code ?? 'error'}`, { kind: 'temporary', connection: true });
      }
    },
    async close(): Promise<void> {},
  };
}
