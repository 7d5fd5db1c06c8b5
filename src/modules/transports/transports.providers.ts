// One mailbox-provider lookup (and its cache) per context, shared by the sending engine and the routing tester.
import type { AppContext } from '../../context.types.ts';
import { MailboxProviders } from '../../mail/providers.ts';

const lookups = new WeakMap<AppContext, MailboxProviders>();

export function mailboxProviders(ctx: AppContext): MailboxProviders {
  let lookup = lookups.get(ctx);
  if (!lookup) {
    lookup = new MailboxProviders(ctx.dns);
    lookups.set(ctx, lookup);
  }
  return lookup;
}
