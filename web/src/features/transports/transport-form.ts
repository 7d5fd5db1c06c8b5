// A transport as its form holds it (every field a string while typed) and the bodies the API takes from it. Secrets
// are never read back: a blank secret field on an edit keeps the one saved.
import type { Body } from '../../shared/api/operations.ts';
import type { Transport, TransportType } from '../../shared/api/types.ts';

export interface TransportFormValues {
  name: string;
  type: TransportType;
  smtp: { host: string; port: string; secure: boolean; username: string; password: string };
  ses: { region: string; accessKeyId: string; secretAccessKey: string; snsTopicArns: string };
  maxPerSecond: string;
  maxConnections: string;
}

export type NewTransport = Body<'/transports', 'post'>;
export type TransportChange = Body<'/transports/{id}', 'patch'>;

const BLANK: TransportFormValues = {
  name: '',
  type: 'smtp',
  smtp: { host: '', port: '587', secure: false, username: '', password: '' },
  ses: { region: '', accessKeyId: '', secretAccessKey: '', snsTopicArns: '' },
  maxPerSecond: '',
  maxConnections: '',
};

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

/** The form of a new transport, or of `transport` as saved (its secrets blank). */
export function toFormValues(transport?: Transport): TransportFormValues {
  if (!transport) return structuredClone(BLANK);
  const { config } = transport;
  return {
    name: transport.name,
    type: transport.type,
    smtp: {
      host: config.host ?? '',
      port: text(config.port) || BLANK.smtp.port,
      secure: config.secure ?? false,
      username: config.username ?? '',
      password: '',
    },
    ses: {
      region: config.region ?? '',
      accessKeyId: config.accessKeyId ?? '',
      secretAccessKey: '',
      snsTopicArns: (config.snsTopicArns ?? []).join('\n'),
    },
    maxPerSecond: text(transport.maxPerSecond),
    maxConnections: text(transport.maxConnections),
  };
}

/** A number field: its number, or undefined when blank. */
const count = (value: string): number | undefined => (value.trim() === '' ? undefined : Number(value));

/** SNS topic ARNs typed one a line (or separated by commas or spaces). */
const arnsOf = (value: string): string[] => value.split(/[\s,]+/).filter(Boolean);

/** The body of POST /transports: the settings of the chosen type, blank optional fields left out. */
export function toNewTransport(values: TransportFormValues): NewTransport {
  const name = values.name.trim();
  const maxPerSecond = count(values.maxPerSecond);
  const maxConnections = count(values.maxConnections);
  const limits = {
    ...(maxPerSecond === undefined ? {} : { maxPerSecond }),
    ...(maxConnections === undefined ? {} : { maxConnections }),
  };
  if (values.type === 'smtp') {
    const { host, port, secure, username, password } = values.smtp;
    const config = {
      host: host.trim(),
      port: Number(port),
      secure,
      ...(username.trim() ? { username: username.trim() } : {}),
      ...(password ? { password } : {}),
    };
    return { type: 'smtp', name, config, ...limits };
  }
  if (values.type === 'ses') {
    const { region, accessKeyId, secretAccessKey, snsTopicArns } = values.ses;
    const arns = arnsOf(snsTopicArns);
    const config = {
      region: region.trim(),
      accessKeyId: accessKeyId.trim(),
      secretAccessKey,
      ...(arns.length ? { snsTopicArns: arns } : {}),
    };
    return { type: 'ses', name, config, ...limits };
  }
  return { type: 'outbox', name, ...limits };
}

/**
 * The body of PATCH /transports/{id}: every field of its type; a blank optional one removed (null), a blank secret
 * left out so the saved one stays.
 */
export function toTransportChange(values: TransportFormValues): TransportChange {
  const common = {
    name: values.name.trim(),
    maxPerSecond: count(values.maxPerSecond) ?? null,
    maxConnections: count(values.maxConnections) ?? null,
  };
  if (values.type === 'smtp') {
    const { host, port, secure, username, password } = values.smtp;
    const config = {
      host: host.trim(),
      port: Number(port),
      secure,
      username: username.trim() || null,
      ...(password ? { password } : {}),
    };
    return { ...common, config };
  }
  if (values.type === 'ses') {
    const { region, accessKeyId, secretAccessKey, snsTopicArns } = values.ses;
    const arns = arnsOf(snsTopicArns);
    const config = {
      region: region.trim(),
      accessKeyId: accessKeyId.trim(),
      snsTopicArns: arns.length ? arns : null,
      ...(secretAccessKey ? { secretAccessKey } : {}),
    };
    return { ...common, config };
  }
  return common;
}
