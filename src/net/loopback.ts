import { isIP } from 'node:net';

/** Whether a client address is this machine's own (127.0.0.0/8, ::1, or IPv4 mapped into IPv6). */
export function isLoopback(address: string): boolean {
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'));
}
