import { pino, type Logger } from 'pino';
import type pretty from 'pino-pretty';
import { lazyPackage } from './lazy-package.ts';

/** The formatter of readable lines, loaded only by a process that writes them (a terminal, LOG_FORMAT=pretty). */
const loadPretty = lazyPackage<typeof pretty>('pino-pretty');

/**
 * The process's logger: readable lines on a terminal (pino-pretty: time, level, message, then the fields),
 * one JSON object per line otherwise (a log collector, a pipe) or when LOG_FORMAT=json asks for it.
 */
export function createLogger(opts: {
  level: string;
  format: 'pretty' | 'json' | undefined;
  tty?: boolean;
  destination?: NodeJS.WritableStream;
}): Logger {
  const readable =
    opts.format === 'pretty' || (opts.format === undefined && (opts.tty ?? process.stdout.isTTY === true));
  if (!readable) return opts.destination ? pino({ level: opts.level }, opts.destination) : pino({ level: opts.level });
  const colorize = !opts.destination && process.stdout.isTTY === true;
  return pino(
    { level: opts.level },
    loadPretty()({
      colorize,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname',
      sync: true,
      ...(opts.destination ? { destination: opts.destination } : {}),
    }),
  );
}
