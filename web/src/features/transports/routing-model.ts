// The routing rules as the editor holds them (each condition a field, blank for "any") and the body of PUT /routing
// made from them; the order of the rules is the order they are tried in.
import type { FieldError } from '../../shared/api/client.ts';
import type { MailboxProvider, MailStream, Routing, RoutingRule } from '../../shared/api/types.ts';

export interface RuleForm {
  /** Names the rule while it is moved about (never sent). */
  key: number;
  stream: MailStream | '';
  senderDomain: string;
  recipientDomain: string;
  recipientProvider: MailboxProvider | '';
  tag: string;
  transportId: string;
  fallbackIds: string[];
}

export interface RoutingForm {
  rules: RuleForm[];
  defaultTransportId: string;
}

let lastKey = 0;
const nextKey = () => ++lastKey;

/** A new rule: every condition blank (it matches every email), sent with `transportId`. */
export const blankRule = (transportId: string): RuleForm => ({
  key: nextKey(),
  stream: '',
  senderDomain: '',
  recipientDomain: '',
  recipientProvider: '',
  tag: '',
  transportId,
  fallbackIds: [],
});

export function toRoutingForm(routing: Routing): RoutingForm {
  return {
    defaultTransportId: routing.defaultTransportId,
    rules: routing.rules.map((rule) => ({
      key: nextKey(),
      stream: rule.match.stream ?? '',
      senderDomain: rule.match.senderDomain ?? '',
      recipientDomain: rule.match.recipientDomain ?? '',
      recipientProvider: rule.match.recipientProvider ?? '',
      tag: rule.match.tag ?? '',
      transportId: rule.transportId,
      fallbackIds: rule.fallbackIds ?? [],
    })),
  };
}

/** The body of PUT /routing: a blank condition is left out, a rule without fallbacks has none. */
export function toRoutingBody(form: RoutingForm): Routing {
  return {
    defaultTransportId: form.defaultTransportId,
    rules: form.rules.map((rule): RoutingRule => {
      const match: RoutingRule['match'] = {};
      if (rule.stream) match.stream = rule.stream;
      if (rule.senderDomain.trim()) match.senderDomain = rule.senderDomain.trim();
      if (rule.recipientDomain.trim()) match.recipientDomain = rule.recipientDomain.trim();
      if (rule.recipientProvider) match.recipientProvider = rule.recipientProvider;
      if (rule.tag.trim()) match.tag = rule.tag.trim();
      return {
        match,
        transportId: rule.transportId,
        ...(rule.fallbackIds.length ? { fallbackIds: rule.fallbackIds } : {}),
      };
    }),
  };
}

/** The list with the item at `index` moved `by` places (-1 up, 1 down); unchanged when it cannot move. */
export function move<T>(list: readonly T[], index: number, by: number): T[] {
  const to = index + by;
  if (index < 0 || index >= list.length || to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(index, 1);
  next.splice(to, 0, item!);
  return next;
}

/** A field path as the editor names its controls: `rules[0].fallbackIds[1]` and `rules.0.fallbackIds.1` alike. */
export const fieldPath = (field: string): string => field.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');

/** A 422's errors with their fields named as the editor's controls are. */
export const withFieldPaths = (errors: readonly FieldError[]): FieldError[] =>
  errors.map((e) => ({ ...e, field: fieldPath(e.field) }));

/** A rule's conditions in words ("every email" when it has none), for the tester's answer and screen readers. */
export function describeMatch(match: RoutingRule['match']): string {
  const parts: string[] = [];
  if (match.stream) parts.push(`${match.stream} mail`);
  if (match.senderDomain) parts.push(`from ${match.senderDomain}`);
  if (match.recipientDomain) parts.push(`to ${match.recipientDomain}`);
  if (match.recipientProvider) parts.push(`to ${match.recipientProvider} mailboxes`);
  if (match.tag) parts.push(`tagged ${match.tag}`);
  return parts.length ? parts.join(', ') : 'every email';
}
