/**
 * CPU per message of one campaign message's work on one thread, for the campaign bench's newsletter and a 100 KB one
 * (BENCH_COMPOSE_KB, default "3,100"): Herald's steps one by one — rendering the shared content for the recipient
 * (Liquid, the text part made from the HTML), rewriting links for tracking, composing the MIME message and signing it
 * — beside the yardstick of the campaign bench, nodemailer composing and DKIM-signing the same rendered message with
 * its own streams (MailComposer + its DKIM signer). In process, after a warm-up; BENCH_ITERATIONS (default 300 for
 * the small message, a tenth of it for larger ones) messages each.
 */
import crypto from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import DKIM from 'nodemailer/lib/dkim';
import { composeMessage } from '../src/mail/compose.ts';
import { rewriteHtmlForTracking } from '../src/mail/links.ts';
import { renderTemplate } from '../src/mail/render.ts';
import { bigNewsletter } from './herald-process.ts';
import { fmt, machineLine } from './support.ts';

const DOMAIN = 'campaign.bench.test';
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const SIZES = (process.env.BENCH_COMPOSE_KB ?? '3,100').split(',').map(Number);

const cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

interface Step {
  render: number;
  track: number;
  compose: number;
  nodemailer: number;
}

export default async function run(): Promise<void> {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const dkim = { domainName: DOMAIN, keySelector: 'herald', privateKey };
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const signer = new DKIM({ domainName: DOMAIN, keySelector: 'herald', privateKey: pem });
  process.stdout.write(`compose benchmark · ${await machineLine()}\n`);
  const rows: string[] = [];
  for (const kb of SIZES) {
    const { subject, body } = bigNewsletter(DOMAIN, kb);
    const iterations = kb > 10 ? Math.max(10, Math.round(ITERATIONS / 10)) : ITERATIONS;
    const total: Step = { render: 0, track: 0, compose: 0, nodemailer: 0 };
    let bytes = 0;
    for (let i = 0; i < iterations + 20; i++) {
      const id = crypto.randomUUID();
      const to = `reader${i}@example.com`;
      const t0 = cpuMs();
      const rendered = renderTemplate({
        subject,
        html: body,
        variables: { firstName: 'Ada', email: to, unsubscribeUrl: `https://h.test/unsubscribe/${id}` },
      });
      const t1 = cpuMs();
      const html = rewriteHtmlForTracking({
        html: rendered.html,
        emailId: id,
        baseUrl: 'https://h.test',
        secret: 'bench-secret-0123456789abcdefghijkl',
        opens: true,
        clicks: true,
        unsubscribeUrl: `https://h.test/unsubscribe/${id}`,
      });
      const t2 = cpuMs();
      const message = {
        from: { email: `news@${DOMAIN}`, name: 'News' },
        to: { email: to },
        subject: rendered.subject,
        html,
        text: rendered.text,
        messageId: `<${id}@${DOMAIN}>`,
        attachments: [],
      };
      const raw = await composeMessage({ ...message, dkim });
      const t3 = cpuMs();
      // The yardstick: the same rendered, tracked message through nodemailer's streams and its DKIM signer.
      const stream = new MailComposer({
        from: { name: 'News', address: message.from.email },
        to,
        subject: message.subject,
        html,
        text: rendered.text,
        messageId: message.messageId,
      })
        .compile()
        .createReadStream();
      const signed = signer.sign(stream);
      await new Promise<void>((resolve, reject) => {
        signed.on('data', () => {});
        signed.on('end', resolve);
        signed.on('error', reject);
      });
      const t4 = cpuMs();
      if (i < 20) continue;
      total.render += t1 - t0;
      total.track += t2 - t1;
      total.compose += t3 - t2;
      total.nodemailer += t4 - t3;
      bytes += raw.length;
    }
    const per = (ms: number) => fmt(ms / iterations, 2);
    const herald = total.render + total.track + total.compose;
    rows.push(
      `${`${kb} KB`.padEnd(8)} ${fmt(bytes / iterations / 1024, 1).padStart(9)} ${per(total.render).padStart(8)} ` +
        `${per(total.track).padStart(8)} ${per(total.compose).padStart(9)} ${per(herald).padStart(8)} ` +
        `${per(total.nodemailer).padStart(11)} ${`${fmt(herald / total.nodemailer, 2)}×`.padStart(7)}`,
    );
    process.stderr.write(`[compose ${kb} KB] ${iterations} messages\n`);
  }
  process.stdout.write(
    [
      '',
      'CPU per message on one thread, ms (after a warm-up):',
      `${'content'.padEnd(8)} ${'signed KB'.padStart(9)} ${'render'.padStart(8)} ${'track'.padStart(8)} ` +
        `${'compose'.padStart(9)} ${'herald'.padStart(8)} ${'nodemailer'.padStart(11)} ${'ratio'.padStart(7)}`,
      ...rows,
      'render: Liquid for the recipient and the text part made from the HTML; track: links and the open pixel;',
      'compose: MIME and DKIM (Herald); nodemailer: MailComposer and its DKIM signer on the rendered, tracked message',
      '',
    ].join('\n'),
  );
}
