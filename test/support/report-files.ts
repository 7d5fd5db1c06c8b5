/**
 * DMARC aggregate and TLS reports as receivers send them, and hostile files shaped like them: zip archives (written
 * here, entry by entry), a gzip that expands to far more than it weighs, XML declaring entities.
 *
 *   const xml = dmarcXml({ domain: 'brand.test', reportId: 'r1', records: [{ ip: '192.0.2.10', count: 5 }] });
 *   const zip = zipOf([{ name: 'report.xml', content: Buffer.from(xml) }]);
 */
import { Readable } from 'node:stream';
import { crc32, createGzip, deflateRawSync } from 'node:zlib';

export interface DmarcRecord {
  ip: string;
  count: number;
  dkim?: 'pass' | 'fail';
  spf?: 'pass' | 'fail';
  disposition?: 'none' | 'quarantine' | 'reject';
  /** The d= of the DKIM signature that was checked (auth_results), with its result. */
  dkimDomain?: string;
}

/** A DMARC aggregate report (RFC 7489 appendix C). `begin`: its period's start, UNIX seconds (a day long). */
export function dmarcXml(opts: {
  domain: string;
  reportId: string;
  org?: string;
  begin?: number;
  records: DmarcRecord[];
}): string {
  const begin = opts.begin ?? Date.UTC(2026, 10, 20) / 1000;
  const records = opts.records
    .map(
      (r) =>
        `<record><row><source_ip>${r.ip}</source_ip><count>${r.count}</count><policy_evaluated>` +
        `<disposition>${r.disposition ?? 'none'}</disposition><dkim>${r.dkim ?? 'fail'}</dkim>` +
        `<spf>${r.spf ?? 'fail'}</spf></policy_evaluated></row>` +
        `<identifiers><header_from>${opts.domain}</header_from></identifiers>` +
        (r.dkimDomain
          ? `<auth_results><dkim><domain>${r.dkimDomain}</domain><result>${r.dkim ?? 'fail'}</result></dkim>` +
            `<spf><domain>${opts.domain}</domain><result>${r.spf ?? 'fail'}</result></spf></auth_results>`
          : '') +
        `</record>`,
    )
    .join('\n');
  return (
    `<?xml version="1.0" encoding="UTF-8" ?>\n<feedback>\n<report_metadata><org_name>${opts.org ?? 'google.com'}` +
    `</org_name><email>noreply-dmarc-support@google.com</email><report_id>${opts.reportId}</report_id>` +
    `<date_range><begin>${begin}</begin><end>${begin + 86_399}</end></date_range></report_metadata>\n` +
    `<policy_published><domain>${opts.domain}</domain><adkim>r</adkim><aspf>r</aspf><p>none</p><sp>none</sp>` +
    `<pct>100</pct></policy_published>\n${records}\n</feedback>\n`
  );
}

/** A TLS report (RFC 8460 §4.3) for one STS policy: successful sessions, and failures of one kind. */
export function tlsJson(opts: { domain: string; reportId: string; successful: number; failed: number }): string {
  return JSON.stringify({
    'organization-name': 'Company-X',
    'date-range': { 'start-datetime': '2026-11-20T00:00:00Z', 'end-datetime': '2026-11-20T23:59:59Z' },
    'contact-info': 'sts-reporting@company-x.example',
    'report-id': opts.reportId,
    policies: [
      {
        policy: {
          'policy-type': 'sts',
          'policy-string': ['version: STSv1', 'mode: testing', `mx: mx.${opts.domain}`, 'max_age: 86400'],
          'policy-domain': opts.domain,
          'mx-host': [`mx.${opts.domain}`],
        },
        summary: {
          'total-successful-session-count': opts.successful,
          'total-failure-session-count': opts.failed,
        },
        'failure-details': [
          {
            'result-type': 'certificate-expired',
            'sending-mta-ip': '2001:db8:abcd:0012::1',
            'receiving-mx-hostname': `mx.${opts.domain}`,
            'failed-session-count': opts.failed,
          },
        ],
      },
    ],
  });
}

/** A zip archive of the entries (deflated), names written as given: `../x` and `/etc/x` included. */
export function zipOf(entries: { name: string; content: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = deflateRawSync(entry.content);
    const crc = crc32(entry.content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(entry.content.length, 22);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x0800, 8);
    header.writeUInt16LE(8, 10);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(data.length, 20);
    header.writeUInt32LE(entry.content.length, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    central.push(header, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A gzip of `megabytes` MB of zeros, compressed from a stream: the expanded bytes are never held at once. */
export async function gzipOfZeros(megabytes: number): Promise<Buffer> {
  const block = Buffer.alloc(1024 * 1024);
  let left = megabytes;
  const zeros = new Readable({
    read() {
      this.push(left-- > 0 ? block : null);
    },
  });
  const chunks: Buffer[] = [];
  for await (const chunk of zeros.pipe(createGzip({ level: 9 }))) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** XML that declares entities: an external one (a file of the server) or the billion laughs. */
export const entityXml = {
  external:
    '<?xml version="1.0"?>\n<!DOCTYPE feedback [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n' +
    '<feedback><report_metadata><org_name>&xxe;</org_name><report_id>x</report_id></report_metadata></feedback>',
  billionLaughs:
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n' +
    Array.from({ length: 9 }, (_, i) => ` <!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">\n`).join(
      '',
    ) +
    ']>\n<feedback><report_metadata><org_name>&lol9;</org_name></report_metadata></feedback>',
};
