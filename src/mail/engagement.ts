// Tells an open or a click made by a person from one made by a machine: Apple Mail Privacy Protection fetches
// every image when the message arrives, some providers' image proxies fetch on receipt, and security scanners
// follow every link before the recipient sees the message. Machine activity is recorded but kept apart, so rates
// and A/B winners are computed from people. The rules are documented in docs/campaigns.md; each has a test.

/** A tracking request as the classifier sees it. */
export interface EngagementRequest {
  method: string;
  ip: string;
  userAgent: string | undefined;
  /** When the email was handed to the mail server (null when unknown). */
  sentAt: Date | null;
  now?: Date;
}

export type MachineReason =
  | 'APPLE_MPP'
  | 'PREFETCH_PROXY'
  | 'HEAD_REQUEST'
  | 'SCANNER_AGENT'
  | 'NO_AGENT'
  | 'INSTANT_CLICK';

/** A click this soon after the handoff is a scanner's: no person has opened the message yet. */
export const INSTANT_CLICK_MS = 5_000;

/** Apple's 17.0.0.0/8, from which Mail Privacy Protection fetches (IPv4, or IPv4 mapped into IPv6). */
function isAppleAddress(ip: string): boolean {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return /^17\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * Apple's prefetch announces itself with a bare browser agent ("Mozilla/5.0", no engine or device tokens); Mail
 * on a device the person reads with sends its full agent (AppleWebKit, Mobile, …).
 */
function isGenericAgent(userAgent: string): boolean {
  return !/AppleWebKit|Gecko|Chrome|Safari|Mobile|Outlook|Thunderbird/i.test(userAgent);
}

/** Image proxies that fetch a message's images when it arrives rather than when it is read. */
const PREFETCH_PROXIES = /YahooMailProxy|ymailproxy/i;

/**
 * Link and attachment scanners, preview generators and HTTP libraries: no person reads mail through them.
 * (Gmail's GoogleImageProxy fetches when the message is opened, so it counts as a person.)
 */
const SCANNER_AGENTS = new RegExp(
  [
    'bot\\b',
    'crawler',
    'spider',
    'scanner',
    'Barracuda',
    'Proofpoint',
    'Mimecast',
    'ms-office-safelinks',
    'Microsoft Office Protection',
    'Symantec',
    'Forcepoint',
    'Sophos',
    'Trend ?Micro',
    'FireEye',
    'Cisco',
    'IronPort',
    'urlscan',
    'python-requests',
    'python-urllib',
    'curl/',
    'Wget',
    'Go-http-client',
    'Java/',
    'okhttp',
    'axios',
    'node-fetch',
    'undici',
    'HeadlessChrome',
    'PhantomJS',
    'facebookexternalhit',
    'Slackbot',
    'SkypeUriPreview',
    'LinkedInBot',
    'WhatsApp',
  ].join('|'),
  'i',
);

/** Why an open is a machine's, or null for a person's. */
export function classifyOpen(request: EngagementRequest): MachineReason | null {
  const agent = request.userAgent?.trim() ?? '';
  if (request.method === 'HEAD') return 'HEAD_REQUEST';
  if (agent === '') return 'NO_AGENT';
  if (isAppleAddress(request.ip) && isGenericAgent(agent)) return 'APPLE_MPP';
  if (PREFETCH_PROXIES.test(agent)) return 'PREFETCH_PROXY';
  if (SCANNER_AGENTS.test(agent)) return 'SCANNER_AGENT';
  return null;
}

/** Why a click is a machine's, or null for a person's. */
export function classifyClick(request: EngagementRequest): MachineReason | null {
  const agent = request.userAgent?.trim() ?? '';
  if (request.method === 'HEAD') return 'HEAD_REQUEST';
  if (agent === '') return 'NO_AGENT';
  if (SCANNER_AGENTS.test(agent)) return 'SCANNER_AGENT';
  const now = (request.now ?? new Date()).getTime();
  if (request.sentAt && now - request.sentAt.getTime() < INSTANT_CLICK_MS) return 'INSTANT_CLICK';
  return null;
}
