// Kept apart from email-address.ts (which loads zod): the compose threads need only this.
import { domainToASCII } from 'node:url';

/**
 * The domain of an address as domains are stored: lower-case, punycode, without a trailing dot
 * (`news@Mail.Example.com.` → `mail.example.com`); '' when there is none.
 */
export function domainOf(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '';
  const domain = address
    .slice(at + 1)
    .trim()
    .replace(/\.$/, '')
    .toLowerCase();
  if (/^[\x20-\x7e]*$/.test(domain)) return domain;
  return domainToASCII(domain);
}
