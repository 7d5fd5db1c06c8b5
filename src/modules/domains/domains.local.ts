// The local sender domain: a new install's Default project can send from herald.localhost through the outbox
// at once, without DNS. A .localhost name (RFC 6761) never resolves beyond the machine, so no real mail server
// would take its mail: with the SMTP or SES transport it is refused like an unverified domain.
import type { DomainRecord } from '../../db/schema/domains.ts';
import { dkimRecordName, dkimTxtValue, splitTxtValue } from '../../mail/dkim-keys.ts';
import type { RecordPlan } from './domains.records.ts';

export const LOCAL_SENDER_DOMAIN = 'herald.localhost';

/** Whether a domain is a .localhost name (outbox only). */
export function isLocalDomain(domain: string): boolean {
  return domain === 'localhost' || domain.endsWith('.localhost');
}

/**
 * Why mail from this domain cannot go out through this transport; null when it can. `route` names a project's
 * transport that its routing chose (otherwise the instance's own, MAIL_TRANSPORT, is meant).
 */
export function localDomainRefusal(
  domain: string,
  transport: 'outbox' | 'smtp' | 'ses',
  route?: { name: string },
): string | null {
  if (!isLocalDomain(domain) || transport === 'outbox') return null;
  const through = route
    ? `its route's transport ${JSON.stringify(route.name)} (${transport})`
    : `MAIL_TRANSPORT=${transport}`;
  const instead = route ? 'Route its mail to an outbox transport, or send' : 'Send';
  return (
    `${domain} is a local sender for the outbox transport only: with ` +
    `${through} mail from it would reach real servers, ` +
    `which refuse a .localhost sender. ${instead} from a domain of your own.`
  );
}

/** A local domain's one record: its DKIM key, shown for completeness and verified (nothing is looked up). */
export function localRecords(plan: RecordPlan): DomainRecord[] {
  const dkim = dkimTxtValue(plan.publicKeyBase64);
  return [
    {
      purpose: 'DKIM',
      type: 'TXT',
      name: dkimRecordName(plan.selector, plan.domain),
      value: dkim,
      values: splitTxtValue(dkim),
      required: true,
      status: 'VERIFIED',
    },
  ];
}
