// Reads what comes back after the handoff: RFC 3464 delivery status notifications and RFC 5965 abuse
// reports (ARF). Anything else (out-of-office replies, unparseable mail) is `other`, dropped by the caller.

export type FeedbackReport =
  | { kind: 'bounce'; status: string; action: string | null; diagnostic: string | null; recipient: string | null }
  | { kind: 'delay'; status: string; action: string | null; diagnostic: string | null; recipient: string | null }
  | { kind: 'complaint'; feedbackType: string; userAgent: string | null; recipient: string | null }
  | { kind: 'other'; reason: string };

type Fields = Map<string, string>;

/** Splits `Name: value` blocks separated by blank lines (RFC 3464 §2.1), unfolding continuation lines. */
export function parseFieldBlocks(text: string): Fields[] {
  const blocks: Fields[] = [];
  let current: Fields = new Map();
  let last: string | null = null;
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    if (line.trim() === '') {
      if (current.size > 0) blocks.push(current);
      current = new Map();
      last = null;
      continue;
    }
    if (/^[ \t]/.test(line) && last) {
      current.set(last, `${current.get(last)} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    last = line.slice(0, colon).trim().toLowerCase();
    if (!current.has(last)) current.set(last, line.slice(colon + 1).trim());
  }
  if (current.size > 0) blocks.push(current);
  return blocks;
}

// `rfc822; user@example.com` → `user@example.com`
function addressOf(value: string | undefined): string | null {
  if (!value) return null;
  const semi = value.indexOf(';');
  return (semi === -1 ? value : value.slice(semi + 1)).trim().replace(/^<|>$/g, '') || null;
}

const STATUS = /^([245])\.\d{1,3}\.\d{1,3}/;

function fromDeliveryStatus(text: string): FeedbackReport {
  const recipients = parseFieldBlocks(text).filter((b) => b.has('status') || b.has('final-recipient'));
  const pick = (cls: string) => recipients.find((b) => STATUS.exec(b.get('status') ?? '')?.[1] === cls);
  const failed = pick('5');
  const delayed = failed ? undefined : pick('4');
  const block = failed ?? delayed;
  if (!block) return { kind: 'other', reason: 'delivery status without a failure or delay' };
  return {
    kind: failed ? 'bounce' : 'delay',
    status: STATUS.exec(block.get('status')!)![0],
    action: block.get('action')?.toLowerCase() ?? null,
    diagnostic: block.get('diagnostic-code')?.slice(0, 1000) ?? null,
    recipient: addressOf(block.get('final-recipient') ?? block.get('original-recipient')),
  };
}

function fromFeedbackReport(text: string): FeedbackReport {
  const fields = parseFieldBlocks(text)[0] ?? new Map<string, string>();
  const type = fields.get('feedback-type')?.toLowerCase();
  if (!type) return { kind: 'other', reason: 'feedback report without Feedback-Type' };
  if (type !== 'abuse') return { kind: 'other', reason: `feedback report of type ${type}` };
  return {
    kind: 'complaint',
    feedbackType: type,
    userAgent: fields.get('user-agent') ?? null,
    recipient: addressOf(fields.get('original-rcpt-to')),
  };
}

/** Classifies a raw message received at a return path. Never throws: a message it cannot read is `other`. */
export async function readFeedbackReport(raw: Buffer): Promise<FeedbackReport> {
  let parsed;
  try {
    const { simpleParser } = await import('mailparser'); // loaded on first use: large, and only feedback needs it
    parsed = await simpleParser(raw, {
      keepDeliveryStatus: true,
      skipHtmlToText: true,
      skipTextLinks: true,
      skipImageLinks: true,
    });
  } catch (error) {
    return { kind: 'other', reason: `unparseable: ${error instanceof Error ? error.message : String(error)}` };
  }
  const type = parsed.headers.get('content-type') as { value?: string; params?: Record<string, string> } | undefined;
  if (type?.value?.toLowerCase() !== 'multipart/report')
    return { kind: 'other', reason: `not a report (${type?.value ?? 'no content type'})` };
  const reportType = type.params?.['report-type']?.toLowerCase();
  const part = (...types: string[]) =>
    parsed.attachments.find((a) => types.includes(a.contentType.toLowerCase()))?.content.toString('utf8');
  if (reportType === 'delivery-status') {
    const text = part('message/delivery-status', 'message/global-delivery-status');
    return text ? fromDeliveryStatus(text) : { kind: 'other', reason: 'delivery report without a status part' };
  }
  if (reportType === 'feedback-report') {
    const text = part('message/feedback-report');
    return text ? fromFeedbackReport(text) : { kind: 'other', reason: 'feedback report without its report part' };
  }
  return { kind: 'other', reason: `report type ${reportType ?? 'missing'}` };
}
