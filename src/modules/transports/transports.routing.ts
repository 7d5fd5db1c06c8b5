// GET|PUT /routing and POST /routing/test: a project's rules, checked against its transports, and the route an email
// would take now.
import type { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import type { RoutingRule } from '../../db/schema/index.ts';
import { domainOf } from '../../lib/address-domain.ts';
import { AppError, type FieldError } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { changesOf, recordAudit } from '../audit/index.ts';
import { readHealth } from './transports.health.ts';
import { mailboxProviders } from './transports.providers.ts';
import * as repo from './transports.repo.ts';
import { chooseRoute, DEFAULT_TRANSPORT_ID, type Routing } from './transports.route.ts';
import type { putRoutingBody, routingTestBody } from './transports.schemas.ts';

/** The project's routing; a project that set none sends everything through `default`. */
export async function getRouting(opts: { db: Executor; projectId: string }): Promise<Routing> {
  const row = await repo.findRouting(opts.db, opts.projectId);
  return row
    ? { rules: row.rules, defaultTransportId: row.defaultTransportId }
    : { rules: [], defaultTransportId: DEFAULT_TRANSPORT_ID };
}

/** Every transport a routing names, with the field that names it. */
function referencesOf(routing: Routing): { field: string; id: string }[] {
  const refs = routing.rules.flatMap((rule, at) => [
    { field: `rules.${at}.transportId`, id: rule.transportId },
    ...(rule.fallbackIds ?? []).map((id, i) => ({ field: `rules.${at}.fallbackIds.${i}`, id })),
  ]);
  return [...refs, { field: 'defaultTransportId', id: routing.defaultTransportId }];
}

/** The rule as stored: only the conditions and fallbacks it has. */
function storedRule(rule: z.infer<typeof putRoutingBody>['rules'][number]): RoutingRule {
  const match = Object.fromEntries(
    Object.entries(rule.match).filter(([, v]) => v !== undefined),
  ) as RoutingRule['match'];
  return {
    match,
    transportId: rule.transportId,
    ...(rule.fallbackIds && rule.fallbackIds.length > 0 ? { fallbackIds: rule.fallbackIds } : {}),
  };
}

/**
 * Replaces the project's routing. The transports it names are share-locked until it is saved, so a transport being
 * deleted meanwhile is either seen gone here (422) or sees this routing name it (409).
 */
export async function putRouting(opts: {
  ctx: AppContext;
  projectId: string;
  input: z.infer<typeof putRoutingBody>;
}): Promise<Routing> {
  const { ctx, projectId, input } = opts;
  const routing: Routing = {
    rules: input.rules.map(storedRule),
    defaultTransportId: input.defaultTransportId ?? DEFAULT_TRANSPORT_ID,
  };
  const refs = referencesOf(routing);
  await ctx.db.transaction(async (tx) => {
    const ids = [...new Set(refs.map((r) => r.id).filter(isId))];
    const known = new Set([
      DEFAULT_TRANSPORT_ID,
      ...(await repo.transportNames(tx, projectId, ids, { share: true })).map((t) => t.id),
    ]);
    const errors: FieldError[] = refs
      .filter((ref) => !known.has(ref.id))
      .map((ref) => ({
        field: ref.field,
        message:
          `no transport of this project has the id "${ref.id.slice(0, 64)}" ` +
          '(use "default" or an id of GET /transports)',
        code: 'unknown_transport',
      }));
    if (errors.length > 0)
      throw new AppError('VALIDATION_ERROR', `${errors[0]!.field}: ${errors[0]!.message}`, { errors });
    const before = await repo.lockRouting(tx, projectId);
    await repo.saveRouting(tx, projectId, routing);
    const was = before
      ? { rules: before.rules, defaultTransportId: before.defaultTransportId }
      : { rules: [], defaultTransportId: DEFAULT_TRANSPORT_ID };
    await recordAudit(tx, {
      action: 'routing.updated',
      resourceType: 'routing',
      resourceId: projectId,
      projectId,
      changes: changesOf(was, routing),
    });
  });
  return routing;
}

/** Which transport an email would take now, with the rule that chose it and each transport's state. */
export async function testRouting(opts: {
  ctx: AppContext;
  projectId: string;
  input: z.infer<typeof routingTestBody>;
}) {
  const { ctx, projectId, input } = opts;
  const row = await repo.findRouting(ctx.db, projectId);
  const provider = await mailboxProviders(ctx).ofAddress(input.to);
  const stream = input.stream ?? 'transactional';
  const route = chooseRoute(row ? { rules: row.rules, defaultTransportId: row.defaultTransportId } : null, {
    stream,
    senderDomain: domainOf(input.from),
    recipientDomain: domainOf(input.to),
    recipientProvider: provider,
    tags: input.tags ?? [],
  });
  const keys = [route.transportId, ...route.fallbackIds];
  const [names, health] = await Promise.all([
    repo.transportNames(ctx.db, projectId, keys.filter(isId)),
    readHealth(ctx.db, keys),
  ]);
  const name = names.find((t) => t.id === route.transportId)?.name;
  return {
    transportId: route.transportId,
    transportName: route.transportId === DEFAULT_TRANSPORT_ID ? DEFAULT_TRANSPORT_ID : (name ?? route.transportId),
    fallbackIds: route.fallbackIds,
    rule: route.rule,
    provider,
    stream,
    states: Object.fromEntries(keys.map((key) => [key, health.get(key)!.state])),
  };
}
