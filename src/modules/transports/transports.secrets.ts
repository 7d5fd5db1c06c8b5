// A transport's secret (an SMTP password, an SES secret access key) is kept sealed with APP_SECRET, and only
// ever unsealed to open a connection.
import { seal, unseal } from '../../lib/seal.ts';

const PURPOSE = 'transport-secret';

export interface TransportSecret {
  password?: string;
  secretAccessKey?: string;
}

export function sealTransportSecret(appSecret: string, secret: TransportSecret): string | null {
  if (secret.password === undefined && secret.secretAccessKey === undefined) return null;
  return seal(appSecret, PURPOSE, JSON.stringify(secret));
}

export interface SealKeys {
  appSecret: string | undefined;
  /** The secret before a rotation: still opens what was sealed under it until everything is sealed again. */
  appSecretPrevious?: string | undefined;
}

/** The secret (empty when there is none); throws when neither key opens it. */
export function unsealTransportSecret(sealed: string | null, keys: SealKeys): TransportSecret {
  if (!sealed) return {};
  const candidates = [keys.appSecret, keys.appSecretPrevious].filter((k): k is string => Boolean(k));
  for (const key of candidates) {
    try {
      return JSON.parse(unseal(key, PURPOSE, sealed)) as TransportSecret;
    } catch {
      // the next key, if any
    }
  }
  throw new Error('The transport secret cannot be opened with APP_SECRET (was it sealed under another secret?)');
}
