/**
 * Our own fuzz test: walks every operation of /openapi.json, as the app serves it, with malformed
 * path ids, query strings and bodies from a seeded corpus (deep nesting, NUL, white space, huge values, wrong
 * types, prototype keys, 2,000-character ids), authenticated with a secret key (the admin token on /admin),
 * and asserts: never a 5xx, every 4xx in the error envelope, every answer as the document says (status and
 * body), and the server healthy afterwards. Operations added later are walked as soon as they are documented.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiWorld, type ApiWorld } from '../../support/api-world.ts';
import { errorShape, resendErrorShape } from '../../support/envelope.ts';
import {
  BODY_FRAGMENTS,
  PATH_FRAGMENTS,
  QUERY_FRAGMENTS,
  QUERY_STRINGS,
  VALUE_FRAGMENTS,
  bodySchema,
  plausible,
  sample,
  seededRandom,
} from '../../support/fuzz-corpus.ts';
import {
  isAdmin,
  openApiDocument,
  operationsOf,
  responseChecker,
  type OpenApiDocument,
  type Operation,
  type ResponseChecker,
} from '../../support/openapi.ts';

interface FuzzRequest {
  op: Operation;
  what: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

const MARK = '"__FUZZ_VALUE__"';

describe('fuzzing every operation of the OpenAPI document', () => {
  let w: ApiWorld;
  let doc: OpenApiDocument;
  let checker: ResponseChecker;

  beforeAll(async () => {
    w = await createApiWorld();
    doc = await openApiDocument(w.t.app);
    checker = responseChecker(doc);
  }, 120_000);
  afterAll(() => w.close());

  function authFor(op: Operation): Record<string, string> {
    if (isAdmin(op)) return w.t.admin;
    // Routes only people call take the world's signed-in owner; the rest a key (signing out is tried with a key: 403).
    if (op.security?.length && op.security.every((scheme) => 'session' in scheme) && op.operationId !== 'signOut')
      return w.personHeaders;
    return op.security?.length ? w.project.auth : {};
  }

  function urlOf(op: Operation, override?: { param: string; value: string }, query = ''): string {
    const path = op.path.replace(/\{([^}]+)\}/g, (_, param: string) =>
      override?.param === param ? override.value : encodeURIComponent(w.pathValue(op.path, param)),
    );
    return query ? `${path}?${query}` : path;
  }

  /** Every request of the corpus for one operation. */
  function requestsFor(op: Operation, random: () => number): FuzzRequest[] {
    const headers = authFor(op);
    const valid = w.validRequest(op.operationId);
    const { schema, properties } = bodySchema(doc, op);
    const base = valid?.body ?? (schema ? plausible(doc, schema) : undefined);
    const baseQuery = valid?.query ?? '';
    const json = { ...headers, 'content-type': 'application/json' };
    const withBody = (payload: string | undefined) =>
      payload === undefined ? { headers } : { headers: json, payload };
    const baseText = base === undefined ? undefined : JSON.stringify(base);
    const out: FuzzRequest[] = [
      { op, what: 'the valid request', url: urlOf(op, undefined, baseQuery), ...withBody(baseText) },
    ];

    for (const param of (op.path.match(/\{([^}]+)\}/g) ?? []).map((p) => p.slice(1, -1))) {
      for (const value of PATH_FRAGMENTS)
        out.push({
          op,
          what: `path ${param}=${value.slice(0, 20)}`,
          url: urlOf(op, { param, value }),
          ...withBody(baseText),
        });
    }
    for (const param of (op.parameters ?? []).filter((p) => p.in === 'query')) {
      for (const value of sample(QUERY_FRAGMENTS, 6, random))
        out.push({
          op,
          what: `query ${param.name}=${value.slice(0, 20)}`,
          url: urlOf(op, undefined, `${param.name}=${value}`),
          headers,
        });
    }
    for (const query of QUERY_STRINGS)
      out.push({ op, what: `query ${query}`, url: urlOf(op, undefined, query), headers });
    if (op.method === 'GET') return out;

    for (const body of BODY_FRAGMENTS)
      out.push({ op, what: `body ${body.slice(0, 30)}`, url: urlOf(op), headers: json, payload: body });
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
      out.push({
        op,
        what: `content-type ${type}`,
        url: urlOf(op),
        headers: { ...headers, 'content-type': type },
        payload: baseText ?? 'a=1',
      });
    }
    out.push({
      op,
      what: 'a 2 MB body',
      url: urlOf(op),
      headers: json,
      payload: JSON.stringify({ ...(base as object), pad: 'x'.repeat(2 * 1024 * 1024) }),
    });
    if (base && typeof base === 'object' && !Array.isArray(base)) {
      for (const property of new Set([...Object.keys(base), ...properties])) {
        const template = JSON.stringify({ ...base, [property]: '__FUZZ_VALUE__' });
        for (const value of sample(VALUE_FRAGMENTS, 5, random)) {
          out.push({
            op,
            what: `${property}=${value.slice(0, 30)}`,
            url: urlOf(op),
            headers: json,
            payload: template.replace(MARK, value),
          });
        }
      }
    }
    return out;
  }

  /** What is wrong with one answer (nothing, usually). */
  function verdict(request: FuzzRequest, res: LightMyRequestResponse): string[] {
    const where = `${request.op.method} ${request.op.path} [${request.what}] → ${res.statusCode}`;
    if (res.statusCode >= 500) return [`${where}: ${res.body.slice(0, 200)}`];
    const problems: string[] = [];
    // Resend's API under /resend answers Resend's error shape instead of the envelope.
    const shape = request.op.path.startsWith('/resend/') ? resendErrorShape : errorShape;
    if (res.statusCode >= 400 && !shape.safeParse(safeJson(res)).success)
      problems.push(`${where}: not the error envelope: ${res.body.slice(0, 120)}`);
    for (const p of checker.problems(request.op.method, request.url, res)) problems.push(`[${request.what}] ${p}`);
    return problems;
  }

  it('never answers 5xx, always the envelope and the document, and stays healthy', async () => {
    const random = seededRandom(11);
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(50);
    const failures: string[] = [];
    let sent = 0;
    for (const op of operations) {
      for (const request of requestsFor(op, random)) {
        const res = await w.t.app.inject({
          method: op.method as 'GET',
          url: request.url,
          headers: request.headers,
          ...(request.payload === undefined ? {} : { payload: request.payload }),
        });
        sent++;
        failures.push(...verdict(request, res));
      }
    }
    expect(sent).toBeGreaterThan(1000);
    expect(failures.slice(0, 40), `${failures.length} problems in ${sent} requests`).toEqual([]);

    expect((await w.t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const after = await w.t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: w.project.auth,
      payload: { email: 'after-fuzz@example.com' },
    });
    expect(after.statusCode, after.body).toBe(201);
  }, 600_000);
});

function safeJson(res: LightMyRequestResponse): unknown {
  try {
    return res.json();
  } catch {
    return null;
  }
}
