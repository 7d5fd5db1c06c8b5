// Kept apart from email-address.ts (which loads zod): the compose threads need only this.

/** The domain of a stored address, lower-cased (`news@Mail.Example.com` → `mail.example.com`). */
export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}
