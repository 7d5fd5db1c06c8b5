/**
 * Part of the transports benchmark: a campaign of the newsletter over a project's own transports, sent by a real
 * `herald serve` and counted per recipient wherever its messages arrive.
 */
import { until } from '../test/support/until.ts';
import { cpuSecondsOf, newsletter, type HeraldProcess } from './herald-process.ts';
import { fmt } from './support.ts';

export const DOMAIN = 'transports.bench.test';
export const LIMIT_MS = Number(process.env.BENCH_TRANSPORTS_LIMIT_SECONDS ?? 1800) * 1000;

/** Where a message may arrive: a count per recipient address (lower-cased). */
export interface Receiver {
  perRecipient: ReadonlyMap<string, number>;
}

/** Messages to `address` across the receivers. */
export const countAt = (receivers: Receiver[], address: string) =>
  receivers.reduce((sum, r) => sum + (r.perRecipient.get(address) ?? 0), 0);
const recipientsAt = (receivers: Receiver[]) => receivers.reduce((sum, r) => sum + r.perRecipient.size, 0);
export const secondsBetween = (fromMs: number, toMs: number) => (toMs - fromMs) / 1000;

/** Adds one SMTP transport per relay (on 127.0.0.1); their ids in the same order. */
export async function addTransports(herald: HeraldProcess, relays: { port: number }[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, relay] of relays.entries()) {
    const created = await herald.api('POST', '/transports', {
      name: `relay-${i + 1}`,
      type: 'smtp',
      config: { host: '127.0.0.1', port: relay.port },
    });
    ids.push(created.id as string);
  }
  return ids;
}

/** A campaign of the newsletter to every contact (not sent yet); its id. */
export async function createCampaign(herald: HeraldProcess): Promise<string> {
  const campaign = await herald.api('POST', '/campaigns', {
    name: 'transports',
    audienceType: 'ALL',
    from: `news@${DOMAIN}`,
    fromName: 'Bench',
    ...newsletter(DOMAIN),
  });
  return campaign.id as string;
}

/** The emails not SENT, by status, reason and error (`FAILED RENDER_FAILED (…) 1; …`), or 'none'. */
export async function notSent(herald: HeraldProcess): Promise<string> {
  const rows = await herald.query<{ status: string; reason: string | null; error: string | null; n: number }>(
    'SELECT status, status_reason AS reason, last_error AS error, count(*)::int AS n FROM emails ' +
      "WHERE status <> 'SENT' GROUP BY 1, 2, 3 ORDER BY 4 DESC",
  );
  return rows.map((r) => `${r.status} ${r.reason ?? ''} (${r.error ?? ''}) ${fmt(r.n)}`).join('; ') || 'none';
}

/** How many SENT emails recorded each transport, grouped by `key` too (an SQL expression over emails). */
export async function recordedTransports(
  herald: HeraldProcess,
  key: string,
): Promise<{ key: string; transport: string | null; n: number }[]> {
  return herald.query(
    `SELECT ${key} AS key, transport_id AS transport, count(*)::int AS n FROM emails WHERE status = 'SENT' ` +
      'GROUP BY 1, 2 ORDER BY 3 DESC',
  );
}

/**
 * Sends the campaign and waits for every recipient at some receiver (or every email settled without), then for the
 * campaign's SENT and a quiet second (late re-sends count too). The serve process's CPU seconds (every thread) are
 * counted from the send request to the last recipient, as the campaign bench counts them.
 */
export async function sendAndSettle(
  herald: HeraldProcess,
  campaignId: string,
  receivers: Receiver[],
  recipients: number,
): Promise<{ started: number; allAt: number; sentAt: number; cpuSeconds: number }> {
  const status = async () => (await herald.api('GET', `/campaigns/${campaignId}`)).status as string;
  const cpuBefore = cpuSecondsOf(herald.pid());
  const started = performance.now();
  await herald.api('POST', `/campaigns/${campaignId}/send`);
  let lookedAt = 0;
  await until(
    async () => {
      if (recipientsAt(receivers) >= recipients) return true;
      if (performance.now() - lookedAt < 500) return false;
      lookedAt = performance.now();
      // Every email settled while a recipient is still missing: it will not come (the figures say why).
      return (await status()) === 'SENT';
    },
    'every recipient at a receiver',
    LIMIT_MS,
    20,
  );
  const allAt = performance.now();
  const cpuSeconds = cpuSecondsOf(herald.pid()) - cpuBefore;
  await until(async () => (await status()) === 'SENT', 'the campaign SENT', LIMIT_MS, 250);
  const sentAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return { started, allAt, sentAt, cpuSeconds };
}
