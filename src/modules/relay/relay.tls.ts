// The relay's certificate, read from PEM files and read again when either file changes (a renewal by certbot or
// any ACME client), so a renewed certificate is served to the next connection without a restart.
import fs from 'node:fs';
import tls from 'node:tls';
import type { Logger } from 'pino';
import { ConfigError } from '../../config.ts';

export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

const POLL_MS = 1000;

/** Reads both files and checks that they make a usable context (a key that matches its certificate). */
export function readTlsFiles(files: TlsFiles): { cert: Buffer; key: Buffer } {
  const pair = { cert: fs.readFileSync(files.certFile), key: fs.readFileSync(files.keyFile) };
  tls.createSecureContext(pair);
  return pair;
}

/**
 * The files at start: a missing, unreadable or mismatched pair stops the process with a message naming the settings.
 */
export function readTlsFilesAtStart(files: TlsFiles): { cert: Buffer; key: Buffer } {
  try {
    return readTlsFiles(files);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(
      `Invalid configuration:\n  SUBMISSION_TLS_CERT, SUBMISSION_TLS_KEY: ` +
        `${files.certFile} and ${files.keyFile} must be readable PEM files, ` +
        `the certificate chain and its private key (${reason})`,
    );
  }
}

/**
 * Calls `apply` with the files' new contents whenever either changes. A pair caught half-written (a key that does
 * not match the certificate yet) is skipped: the next change, or the next poll of the other file, brings it whole.
 */
export function watchTlsFiles(
  files: TlsFiles,
  logger: Logger,
  apply: (pair: { cert: Buffer; key: Buffer }) => void,
): () => void {
  const onChange = (current: fs.Stats, previous: fs.Stats) => {
    if (current.mtimeMs === previous.mtimeMs && current.size === previous.size) return;
    try {
      apply(readTlsFiles(files));
      logger.info({ certFile: files.certFile }, 'submission relay certificate reloaded');
    } catch (error) {
      logger.warn(
        { err: error, certFile: files.certFile },
        'submission relay certificate not reloaded (the files do not make a valid pair ' +
          'yet); the previous one stays in use',
      );
    }
  };
  for (const file of [files.certFile, files.keyFile])
    fs.watchFile(file, { interval: POLL_MS, persistent: false }, onChange);
  return () => {
    for (const file of [files.certFile, files.keyFile]) fs.unwatchFile(file, onChange);
  };
}
