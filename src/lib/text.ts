import { z } from 'zod';

/** At least one character that is neither white space nor invisible (format or control characters). */
const VISIBLE = /[^\p{White_Space}\p{Cc}\p{Cf}]/u;
const CONTROL = /\p{Cc}/u;

/**
 * The name of a resource (template, segment, campaign, project…): trimmed, 1 to `max` characters, no
 * control characters, and something visible in it (a name of only spaces or zero-width characters is a 422).
 */
export function nameSchema(max = 200) {
  return z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((value) => !CONTROL.test(value), { error: 'must not contain control characters' })
    .refine((value) => VISIBLE.test(value), { error: 'must contain a visible character' });
}

/** The ILIKE/LIKE pattern of "contains `value`", with the value's own wildcards (`%`, `_`, `\`) escaped. */
export function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
