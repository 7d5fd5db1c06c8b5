// Which transport an email takes: the project's rules in order, the first whose every condition matches, else the
// project's default transport. Pure, so the engine, the routing tester and the dashboard's tester agree.
import type { MailboxProvider, RoutingRule } from '../../db/schema/index.ts';

/** The built-in transport of the instance (MAIL_TRANSPORT / SMTP_URL / SES variables). */
export const DEFAULT_TRANSPORT_ID = 'default';

export interface Routing {
  rules: RoutingRule[];
  defaultTransportId: string;
}

/** What routing looks at of an email. */
export interface RouteFacts {
  stream: 'transactional' | 'marketing';
  senderDomain: string;
  recipientDomain: string;
  recipientProvider: MailboxProvider;
  tags: { name: string; value: string }[];
}

export interface Route {
  transportId: string;
  /** Tried in order while the transport is down. */
  fallbackIds: string[];
  /** The index of the rule that matched; null when none did (the default transport). */
  rule: number | null;
}

const sameDomain = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function tagMatches(condition: string, tags: RouteFacts['tags']): boolean {
  const at = condition.indexOf(':');
  if (at < 0) return tags.some((t) => t.name === condition);
  const name = condition.slice(0, at);
  const value = condition.slice(at + 1);
  return tags.some((t) => t.name === name && t.value === value);
}

export function ruleMatches(rule: RoutingRule, facts: RouteFacts): boolean {
  const m = rule.match;
  if (m.stream !== undefined && m.stream !== facts.stream) return false;
  if (m.senderDomain !== undefined && !sameDomain(m.senderDomain, facts.senderDomain)) return false;
  if (m.recipientDomain !== undefined && !sameDomain(m.recipientDomain, facts.recipientDomain)) return false;
  if (m.recipientProvider !== undefined && m.recipientProvider !== facts.recipientProvider) return false;
  if (m.tag !== undefined && !tagMatches(m.tag, facts.tags)) return false;
  return true;
}

/** The route of an email; without routing (a project that set none) every email takes `default`. */
export function chooseRoute(routing: Routing | null, facts: RouteFacts): Route {
  if (!routing) return { transportId: DEFAULT_TRANSPORT_ID, fallbackIds: [], rule: null };
  const at = routing.rules.findIndex((rule) => ruleMatches(rule, facts));
  if (at < 0) return { transportId: routing.defaultTransportId, fallbackIds: [], rule: null };
  const rule = routing.rules[at]!;
  // A fallback naming the rule's own transport (or one named twice) is tried once, in its first place.
  const fallbackIds = [...new Set(rule.fallbackIds ?? [])].filter((id) => id !== rule.transportId);
  return { transportId: rule.transportId, fallbackIds, rule: at };
}
