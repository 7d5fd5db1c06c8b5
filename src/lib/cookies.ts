// The few cookies Herald sets: read from the Cookie header, written as Set-Cookie values.

/** The value of cookie `name` in a Cookie header, or null. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return null;
      }
    }
  }
  return null;
}

export interface CookieOptions {
  /** Seconds; 0 deletes the cookie; undefined: until the browser closes. */
  maxAge?: number;
  path?: string;
  secure: boolean;
  sameSite?: 'Lax' | 'Strict';
}

/** A Set-Cookie value: always HttpOnly (scripts never read Herald's cookies). */
export function cookieHeader(name: string, value: string, options: CookieOptions): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${options.path ?? '/'}`,
    'HttpOnly',
    `SameSite=${options.sameSite ?? 'Lax'}`,
  ];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
