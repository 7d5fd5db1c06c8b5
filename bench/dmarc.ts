// DMARC aggregate reports read per second: a 10,000-record report as XML and as gzip, parsed by Herald's reader
// (DOCTYPE check, records a slice at a time, aggregated and capped), beside the yardstick of fast-xml-parser's bare
// parse of the same bytes (one object tree, nothing checked or aggregated). Three runs of each, in the same process.
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import { parseDmarcReport, unpackReportFile } from '../src/mail/receive-pool/report-files.ts';
import { dmarcXml } from '../test/support/report-files.ts';

const RECORDS = 10_000;
const ROUNDS = 10;
const RUNS = 3;

/** Reports per second over ROUNDS rounds of `work`, after one round to warm up. */
async function perSecond(work: () => unknown): Promise<number> {
  await work();
  const started = performance.now();
  for (let i = 0; i < ROUNDS; i++) await work();
  return ROUNDS / ((performance.now() - started) / 1000);
}

export default async function main(): Promise<void> {
  const records = Array.from({ length: RECORDS }, (_, i) => ({
    ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    count: 1 + (i % 7),
    dkim: i % 3 === 0 ? ('fail' as const) : ('pass' as const),
    dkimDomain: 'brand.test',
  }));
  const xml = Buffer.from(dmarcXml({ domain: 'brand.test', reportId: 'bench', records }));
  const gz = gzipSync(xml);
  const bare = new XMLParser({ processEntities: false, ignoreAttributes: true, parseTagValue: false });
  console.log(
    `report: ${RECORDS} records, ${(xml.length / 1024 / 1024).toFixed(1)} MB XML, ` +
      `${(gz.length / 1024).toFixed(0)} KB gzip; ${ROUNDS} reports per run`,
  );
  const cases: [string, () => unknown][] = [
    ['baseline: fast-xml-parser bare parse (XML)', () => bare.parse(xml.toString('utf8'))],
    ['herald: XML report', () => parseDmarcReport(xml)],
    [
      'herald: .xml.gz report',
      async () => {
        for (const doc of await unpackReportFile(gz)) parseDmarcReport(doc);
      },
    ],
  ];
  for (let run = 1; run <= RUNS; run++) {
    for (const [label, work] of cases) {
      const rate = await perSecond(work);
      const heap = process.memoryUsage().heapUsed / 1024 / 1024;
      console.log(`run ${run}  ${label.padEnd(44)} ${rate.toFixed(2)} reports/s  (heap now ${heap.toFixed(0)} MB)`);
    }
  }
}
