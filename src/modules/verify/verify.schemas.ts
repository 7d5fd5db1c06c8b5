import { z } from 'zod';

export const MAX_BATCH_SIZE = 1000;

// A plain string on purpose: a malformed address is an answer (valid: false with a reason), not a 422.
// 1024 characters is far beyond any valid address (254) and still bounds the work per item.
const addressInput = z.string().max(1024).describe('The address to check, as typed');

export const verifyRequestSchema = z.object({ email: addressInput });

export const verifyBatchRequestSchema = z.object({
  emails: z.array(addressInput).min(1).max(MAX_BATCH_SIZE).describe(`1 to ${MAX_BATCH_SIZE} addresses`),
});

/** The findings about one address. */
export const verifyResultSchema = z.object({
  email: z.string().describe('The address as submitted (surrounding spaces removed)'),
  valid: z.boolean().describe('Syntax is valid and the domain can receive mail (MX, or A/AAAA without MX; no null MX)'),
  isDisposable: z.boolean().describe('Temporary/throwaway mailbox domain'),
  isAlias: z
    .boolean()
    .describe('Forwarding or relay service (Apple Hide My Email, Firefox Relay, DuckDuckGo, SimpleLogin, addy.io…)'),
  isTypo: z.boolean().describe('The domain looks like a misspelling of a common provider; see suggestedEmail'),
  isPlusAddressed: z.boolean().describe('The local part carries a +tag sub-address'),
  isPersonalEmail: z.boolean().describe('Free/personal webmail provider (gmail.com, outlook.com…)'),
  domainExists: z.boolean().describe('DNS knows the domain (false for NXDOMAIN, and when DNS did not answer)'),
  hasWebsite: z.boolean().describe('The domain or www.<domain> has an A/AAAA record'),
  hasMxRecords: z.boolean().describe('The domain publishes at least one MX host (a null MX does not count)'),
  suggestedEmail: z.string().optional().describe('Likely intended address when isTypo is true'),
  reasons: z.array(z.string()).describe('Human-readable findings, one per line'),
});

export const verifyBatchResultSchema = z.object({
  total: z.int().nonnegative(),
  valid: z.int().nonnegative().describe('How many results have valid: true'),
  results: z.array(verifyResultSchema).describe('One result per submitted address, in request order'),
});

export type VerifyRequest = z.infer<typeof verifyRequestSchema>;
export type VerifyBatchRequest = z.infer<typeof verifyBatchRequestSchema>;
export type VerifyResult = z.infer<typeof verifyResultSchema>;
export type VerifyBatchResult = z.infer<typeof verifyBatchResultSchema>;
