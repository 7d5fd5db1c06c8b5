/**
 * Real responses checked against the app's own OpenAPI document: the status must be documented for the
 * operation, and a JSON body must validate against the documented schema (Ajv, JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1).
 *
 *   const doc = await openApiDocument(t.app);
 *   const checker = responseChecker(doc);
 *   const res = await t.app.inject(...);
 *   expect(checker.problems('GET', '/contacts/x', res)).toEqual([]);
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export interface Operation {
  method: string;
  /** The path template, e.g. `/contacts/{id}`. */
  path: string;
  operationId?: string;
  summary?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: Record<string, unknown> }[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: Record<string, unknown> }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema?: Record<string, unknown> }> }>;
  security?: Record<string, unknown>[];
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
  components?: { schemas?: Record<string, unknown> };
  servers?: { url: string }[];
}

export async function openApiDocument(app: FastifyInstance): Promise<OpenApiDocument> {
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`GET /openapi.json: ${res.statusCode}`);
  return res.json() as OpenApiDocument;
}

/** Every operation of the document, with its method and path template. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })),
  );
}

function templatePattern(path: string): RegExp {
  const escaped = path.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('[^/]+')}$`);
}

export interface ResponseChecker {
  /** The operation a request reaches: literal segments win over parameters (`/emails/stats` over `/emails/{id}`). */
  operationFor(method: string, url: string): Operation | null;
  /** What in a response disagrees with the document (empty when it agrees). */
  problems(method: string, url: string, res: LightMyRequestResponse): string[];
}

export function responseChecker(doc: OpenApiDocument): ResponseChecker {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addFormat('binary', true);
  ajv.addFormat('idn-email', true);
  ajv.addSchema({ $id: 'doc', components: doc.components ?? {} });
  const operations = operationsOf(doc)
    .map((op) => ({ op, pattern: templatePattern(op.path), params: (op.path.match(/\{/g) ?? []).length }))
    .sort((a, b) => a.params - b.params);
  const validators = new Map<string, ReturnType<typeof ajv.compile>>();

  const validatorFor = (key: string, schema: Record<string, unknown>) => {
    let validate = validators.get(key);
    if (!validate) {
      // Refs point into the document's components, registered above as `doc`.
      const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as Record<
        string,
        unknown
      >;
      validate = ajv.compile(rebased);
      validators.set(key, validate);
    }
    return validate;
  };

  const operationFor = (method: string, url: string) => {
    const path = url.split('?')[0]!;
    return operations.find((o) => o.op.method === method && o.pattern.test(path))?.op ?? null;
  };

  return {
    operationFor,
    problems(method, url, res) {
      const op = operationFor(method, url);
      if (!op) return [`${method} ${url.slice(0, 80)}: no operation in the document`];
      const where = `${method} ${op.path} → ${res.statusCode}`;
      const documented = op.responses[String(res.statusCode)];
      if (!documented) return [`${where}: status not documented (documented: ${Object.keys(op.responses).join(', ')})`];
      const contentType = String(res.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim();
      if (!documented.content) return res.body === '' ? [] : [`${where}: a body where the document says none`];
      // A download of any type is documented as the media range */* (an inbound attachment's own type).
      const exact = documented.content[contentType];
      const media = exact ?? documented.content['*/*'];
      if (!media)
        return [
          `${where}: content type ${contentType || '(none)'} not documented ` +
            `(${Object.keys(documented.content).join(', ')})`,
        ];
      if (!exact || contentType !== 'application/json' || !media.schema) return [];
      const validate = validatorFor(`${op.method} ${op.path} ${res.statusCode}`, media.schema);
      if (validate(res.json())) return [];
      return (validate.errors ?? []).slice(0, 3).map((e) => `${where}: body ${e.instancePath || '/'} ${e.message}`);
    },
  };
}

/** The operation takes the admin token (its security names the adminToken scheme). */
export function isAdmin(op: Operation): boolean {
  return op.security?.some((scheme) => 'adminToken' in scheme) ?? false;
}
