// Amazon SES v2 transport: SendEmail with Content.Raw, so SES relays our signed MIME message as built.
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import { needsSmtpUtf8 } from '../../lib/email-address.ts';
import { DeliveryError } from '../transport.ts';
import type { TransportMessage, TransportResult, Transport } from '../transport.ts';

export interface SesTransportOptions {
  region: string;
  /** Override for tests or VPC endpoints, e.g. `http://127.0.0.1:4566`. */
  endpoint?: string;
  /** Both or neither; when absent the AWS SDK's default chain (instance role, env, profile) applies. */
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
  configurationSetName?: string;
  requestTimeoutMs?: number;
}

// SES names for conditions that pass: throttling, quotas, and sender-side states an operator can fix.
const TEMPORARY_ERRORS = new Set([
  'TooManyRequestsException',
  'LimitExceededException',
  'InternalServiceErrorException',
  'ThrottlingException',
  'SendingPausedException',
  'AccountSuspendedException',
  'MailFromDomainNotVerifiedException',
  'ServiceUnavailable',
  'RequestTimeout',
  'RequestTimeoutException',
  'TimeoutError',
]);

const AUTH_ERRORS = new Set([
  'InvalidClientTokenId',
  'SignatureDoesNotMatch',
  'UnrecognizedClientException',
  'AccessDeniedException',
  'ExpiredTokenException',
]);

// Maps an SDK/network error onto retry vs bounce. SES reports recipient bounces asynchronously,
// so nothing here suppresses; MessageRejected and other 4xx request errors are permanent.
export function classifySesError(err: unknown): DeliveryError {
  const e = (err ?? {}) as {
    name?: string;
    message?: string;
    $fault?: string;
    $metadata?: { httpStatusCode?: number };
  };
  const name = e.name ?? 'Error';
  const status = e.$metadata?.httpStatusCode;
  const message = `SES ${name}${status ? ` (${status})` : ''}: ${e.message ?? String(err)}`;
  const base = { command: 'SendEmail', response: message, cause: err, ...(status ? { responseCode: status } : {}) };
  const permanent =
    !TEMPORARY_ERRORS.has(name) &&
    status !== undefined &&
    status !== 429 &&
    status < 500 &&
    status !== 401 &&
    status !== 403 &&
    e.$fault !== 'server';
  // No answer, a refused signature or key, or the service failing: SES cannot take mail now, whatever the message.
  const connection = status === undefined || status === 401 || status === 403 || status >= 500 || AUTH_ERRORS.has(name);
  return new DeliveryError(message, { ...base, kind: permanent ? 'permanent' : 'temporary', connection });
}

// Lazily loads the AWS SDK so outbox/SMTP deployments never pay for it.
export function createSesTransport(options: SesTransportOptions): Transport {
  if (Boolean(options.accessKeyId) !== Boolean(options.secretAccessKey)) {
    throw new Error('SES: accessKeyId and secretAccessKey must be given together');
  }
  let client: Promise<SESv2Client> | null = null;
  const getClient = () =>
    (client ??= import('@aws-sdk/client-sesv2').then(
      ({ SESv2Client: Client }) =>
        new Client({
          region: options.region,
          ...(options.endpoint ? { endpoint: options.endpoint } : {}),
          ...(options.accessKeyId && options.secretAccessKey
            ? {
                credentials: {
                  accessKeyId: options.accessKeyId,
                  secretAccessKey: options.secretAccessKey,
                  ...(options.sessionToken ? { sessionToken: options.sessionToken } : {}),
                },
              }
            : {}),
          maxAttempts: 1, // the send queue owns retries and back-off
          requestHandler: { requestTimeout: options.requestTimeoutMs ?? 30_000, connectionTimeout: 10_000 },
        }),
    ));

  return {
    name: 'ses',
    reportsByMessageId: true,
    async send(msg: TransportMessage): Promise<TransportResult> {
      // SES takes only 7-bit ASCII local parts (no SMTPUTF8): such an address fails now, without a retry.
      const to = Array.isArray(msg.to) ? msg.to : [msg.to];
      const utf8 = [msg.from, ...to].find(needsSmtpUtf8);
      if (utf8)
        throw new DeliveryError(
          `SES does not deliver to or from addresses with non-ASCII characters ` +
            `before the @ (${utf8}); use SMTP with a server that announces ` +
            `SMTPUTF8`,
          { kind: 'permanent', command: 'SendEmail' },
        );
      const [{ SendEmailCommand }, ses] = await Promise.all([import('@aws-sdk/client-sesv2'), getClient()]);
      try {
        const out = await ses.send(
          new SendEmailCommand({
            FromEmailAddress: msg.from,
            Destination: { ToAddresses: to },
            Content: { Raw: { Data: msg.raw } },
            ...(options.configurationSetName ? { ConfigurationSetName: options.configurationSetName } : {}),
          }),
        );
        return { messageId: out.MessageId, response: `SES accepted ${out.MessageId ?? ''}`.trim() };
      } catch (err) {
        throw classifySesError(err);
      }
    },
    async verify(): Promise<void> {
      const [{ GetAccountCommand }, ses] = await Promise.all([import('@aws-sdk/client-sesv2'), getClient()]);
      try {
        await ses.send(new GetAccountCommand({}));
      } catch (err) {
        const failure = classifySesError(err);
        throw new DeliveryError(failure.message.replace(/^SES /, 'SES GetAccount: '), {
          kind: 'temporary',
          connection: true,
          command: 'GetAccount',
          ...(failure.responseCode !== undefined ? { responseCode: failure.responseCode } : {}),
          cause: err,
        });
      }
    },
    async close(): Promise<void> {
      if (client) (await client).destroy();
    },
  };
}
