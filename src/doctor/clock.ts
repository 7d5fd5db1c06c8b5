// This machine's clock against an NTP server (one SNTP exchange over UDP) and against the database server's: DKIM
// signatures, TOTP codes and webhook signatures carry times that receivers compare with their own clocks.
import dgram from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fail, ok, warn, within, type CheckRow } from './rows.ts';

/** Further apart than this is worth a WARN; further than `failMs` a FAIL (TOTP codes last 30 s). */
export const CLOCK_LIMITS = { warnMs: 3_000, failMs: 60_000 } as const;
const TIME_SYNC_FIX =
  'Enable time sync (chrony/systemd-timesyncd): DKIM signatures, TOTP codes and webhook signatures depend on it.';

export interface NtpServer {
  host: string;
  port: number;
}

export const DEFAULT_NTP: NtpServer = { host: 'pool.ntp.org', port: 123 };

/** `--ntp host[:port]` (an IPv6 address in brackets), or null for `--ntp off`; a usage error names what is wrong. */
export function parseNtpOption(value: string | undefined): NtpServer | null {
  if (value === undefined) return DEFAULT_NTP;
  if (value === 'off') return null;
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+))(?::(\d{1,5}))?$/.exec(value.trim());
  const port = match?.[3] === undefined ? 123 : Number(match[3]);
  if (!match || port < 1 || port > 65535) throw new Error(`--ntp: "${value}" is not host[:port] or off`);
  return { host: (match[1] ?? match[2])!, port };
}

// NTP counts seconds from 1900, Unix from 1970.
const NTP_TO_UNIX_SECONDS = 2_208_988_800;

function readTimestamp(packet: Buffer, offset: number): number {
  const seconds = packet.readUInt32BE(offset);
  const fraction = packet.readUInt32BE(offset + 4);
  if (seconds === 0 && fraction === 0) return 0;
  return (seconds - NTP_TO_UNIX_SECONDS) * 1000 + (fraction / 2 ** 32) * 1000;
}

/**
 * How far the server's clock is ahead of this machine's (negative: behind), in ms, from one SNTP exchange. The
 * request's transmit time is random (the server echoes it as the originate time, which ties the answer to the
 * request); the local send and receive times come from a monotonic clock anchored once.
 */
export async function sntpOffset(server: NtpServer, limitMs: number): Promise<number> {
  const { address, family } = await within(limitMs, lookup(server.host));
  const socket = dgram.createSocket(family === 6 ? 'udp6' : 'udp4');
  const request = Buffer.alloc(48);
  request[0] = (0 << 6) | (4 << 3) | 3; // no leap warning, version 4, client
  const nonce = randomBytes(8);
  nonce.copy(request, 40);
  try {
    return await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer within ${limitMs / 1000} s`)), limitMs);
      const anchor = Date.now() - performance.now();
      let sentAt = 0;
      socket.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.on('message', (reply) => {
        const receivedAt = anchor + performance.now();
        const mode = (reply[0] ?? 0) & 7;
        if (reply.length < 48 || mode !== 4 || !reply.subarray(24, 32).equals(nonce)) return;
        clearTimeout(timer);
        if (reply[1] === 0) {
          reject(new Error(`the server refused the request (kiss code ${reply.subarray(12, 16).toString('ascii')})`));
          return;
        }
        const serverReceive = readTimestamp(reply, 32);
        const serverTransmit = readTimestamp(reply, 40);
        if (serverTransmit === 0) {
          reject(new Error('the answer carries no time'));
          return;
        }
        // The round trip's middle against the server's; without its receive time, its transmit time alone.
        resolve(
          serverReceive === 0
            ? serverTransmit - (sentAt + receivedAt) / 2
            : (serverReceive - sentAt + (serverTransmit - receivedAt)) / 2,
        );
      });
      sentAt = anchor + performance.now();
      socket.send(request, server.port, address);
    });
  } finally {
    socket.close();
  }
}

const seconds = (ms: number) => `${(Math.abs(ms) / 1000).toFixed(ms !== 0 && Math.abs(ms) < 10_000 ? 1 : 0)} s`;

/** A clock row from the other clock's offset (positive: it is ahead, so this machine is behind). */
export function clockRow(name: string, offsetMs: number, other: string): CheckRow {
  const detail =
    Math.abs(offsetMs) < 50
      ? `within 0.1 s of ${other}`
      : `this machine's clock is ${seconds(offsetMs)} ${offsetMs > 0 ? 'behind' : 'ahead of'} ${other}`;
  if (Math.abs(offsetMs) > CLOCK_LIMITS.failMs) return fail(name, detail, TIME_SYNC_FIX);
  if (Math.abs(offsetMs) > CLOCK_LIMITS.warnMs) return warn(name, detail, TIME_SYNC_FIX);
  return ok(name, detail);
}

/** The NTP clock row; an NTP server that does not answer is a WARN (this machine may not reach UDP port 123). */
export async function ntpClockRow(server: NtpServer, limitMs: number): Promise<CheckRow> {
  const label = `${server.host.includes(':') ? `[${server.host}]` : server.host}:${server.port}`;
  try {
    return clockRow('clock', await sntpOffset(server, limitMs), `NTP server ${label}`);
  } catch (error) {
    return warn(
      'clock',
      `not compared: NTP server ${label} did not answer (${error instanceof Error ? error.message : String(error)})`,
      'Allow outgoing UDP to port 123, or name a reachable NTP server with --ntp host[:port] (--ntp off skips this).',
    );
  }
}
