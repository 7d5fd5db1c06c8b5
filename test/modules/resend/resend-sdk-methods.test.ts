// Every public method of the installed `resend` SDK, read from its own typings, must have a row in docs/resend.md's
// table: a "supported" row names REST calls that Herald serves under /resend, a "not served" or "not served yet" row
// calls that it does not. A new SDK version's new methods, or a route served without the docs saying so, fail here.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { openApiDocument } from '../../support/openapi.ts';

const require = createRequire(import.meta.url);
// The package's CommonJS entry is dist/index.cjs: its directory's parent is the package.
const SDK_DIR = path.resolve(path.dirname(require.resolve('resend')), '..');
const TYPINGS = path.join(SDK_DIR, 'dist/index.d.mts');
const DOCS = path.resolve(import.meta.dirname, '../../../docs/resend.md');

interface DeclaredClass {
  /** `readonly name: Type;` members: the resources nested under this one. */
  members: Map<string, string>;
  /** Public methods (private ones, the constructor and accessors left out). */
  methods: string[];
}

/** The classes the typings declare, by name, each with its public methods and its typed members. */
function declaredClasses(typings: string): Map<string, DeclaredClass> {
  const classes = new Map<string, DeclaredClass>();
  for (const match of typings.matchAll(/^(?:export )?declare class ([\w$]+)[^{\n]*\{\n([\s\S]*?)^\}/gm)) {
    const members = new Map<string, string>();
    const methods: string[] = [];
    for (const line of match[2]!.split('\n')) {
      const member = /^ {2}readonly (\w+)\??: ([\w$]+);/.exec(line);
      if (member) members.set(member[1]!, member[2]!);
      const method = /^ {2}(?!private |protected |constructor|static |readonly |get |set )(\w+)\s*(?:<[^(]*>)?\(/.exec(
        line,
      );
      if (method) methods.push(method[1]!);
    }
    classes.set(match[1]!, { members, methods });
  }
  return classes;
}

/** Every `area.method` reachable from the Resend client's members (its own methods are the HTTP plumbing). */
function sdkMethods(typings: string): string[] {
  const classes = declaredClasses(typings);
  const out: string[] = [];
  const walk = (className: string, prefix: string, seen: Set<string>) => {
    const declared = classes.get(className)!;
    if (prefix) out.push(...declared.methods.map((m) => `${prefix}.${m}`));
    for (const [name, type] of declared.members) {
      if (classes.has(type) && !seen.has(type))
        walk(type, prefix ? `${prefix}.${name}` : name, new Set([...seen, type]));
    }
  };
  walk('Resend', '', new Set(['Resend']));
  return out;
}

type Status = 'supported' | 'not served' | 'not served yet';

interface DocRow {
  method: string;
  calls: string[];
  /** The calls cell is `—`: the method runs in the SDK without a request (`webhooks.verify`). */
  local: boolean;
  status: Status;
}

/** The rows of docs/resend.md's method tables: `| \`area.method\` | \`VERB /path\`, … | status | … |`. */
function docRows(markdown: string): DocRow[] {
  const rows: DocRow[] = [];
  for (const line of markdown.split('\n')) {
    const cells = /^\|\s*`([\w.]+)`\s*\|([^|]*)\|([^|]*)\|/.exec(line);
    if (!cells) continue;
    rows.push({
      method: cells[1]!,
      calls: [...cells[2]!.matchAll(/`([A-Z]+ \/[^`]*)`/g)].map((c) => c[1]!),
      local: cells[2]!.trim() === '—',
      status: cells[3]!.trim() as Status,
    });
  }
  return rows;
}

/** `GET /emails/{id}` with any parameter names made comparable. */
const normal = (call: string) => call.replace(/\{[^}]+\}/g, '{}');

describe("the SDK's methods against docs/resend.md and the routes under /resend", () => {
  let t: TestApp;
  let served: Set<string>;
  const typings = fs.readFileSync(TYPINGS, 'utf8');
  const methods = sdkMethods(typings);
  const rows = docRows(fs.readFileSync(DOCS, 'utf8'));

  beforeAll(async () => {
    t = await createTestApp();
    const doc = await openApiDocument(t.app);
    served = new Set(
      Object.entries(doc.paths)
        .filter(([p]) => p.startsWith('/resend/'))
        .flatMap(([p, ops]) =>
          Object.keys(ops).map((verb) => normal(`${verb.toUpperCase()} ${p.slice('/resend'.length)}`)),
        ),
    );
  });
  afterAll(() => t.close());

  it('reads the methods from the typings of the pinned SDK', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(SDK_DIR, 'package.json'), 'utf8')) as { version: string };
    expect(pkg.version).toMatch(/^6\./);
    // A few known methods at every depth, so a parser that reads nothing cannot pass.
    expect(methods).toEqual(
      expect.arrayContaining(['emails.send', 'batch.send', 'emails.receiving.attachments.get', 'apiKeys.create']),
    );
    expect(methods).not.toContain('emails.receiving.downloadRaw'); // private
    expect(methods.length).toBeGreaterThan(100);
  });

  it('names every SDK method in the docs, once, and no method the SDK lacks', () => {
    const documented = rows.map((r) => r.method);
    expect(methods.filter((m) => !documented.includes(m))).toEqual([]);
    expect(documented.filter((m) => !methods.includes(m))).toEqual([]);
    expect(documented.filter((m, i) => documented.indexOf(m) !== i)).toEqual([]);
  });

  it('serves every call of a supported method, and none of a method the docs say is not served', () => {
    expect(rows.filter((r) => !['supported', 'not served', 'not served yet'].includes(r.status))).toEqual([]);
    const missing = rows
      .filter((r) => r.status === 'supported')
      .flatMap((r) => (r.calls.length === 0 && !r.local ? [`${r.method}: no REST call named`] : r.calls))
      .filter((call) => !served.has(normal(call)));
    expect(missing).toEqual([]);
    // A method some of whose calls are served (one that reads, then sends) is not served while any call is missing.
    const servedAnyway = rows
      .filter((r) => r.status !== 'supported' && r.calls.length > 0 && r.calls.every((c) => served.has(normal(c))))
      .map((r) => r.method);
    expect(servedAnyway).toEqual([]);
  });

  it("answers Resend's 404 for a method it does not serve", async () => {
    const usage = await t.app.inject({ method: 'GET', url: '/resend/usage', headers: { authorization: 'Bearer x' } });
    expect(usage.statusCode).toBe(404);
    expect(usage.json()).toMatchObject({ statusCode: 404, name: 'not_found' });
  });
});
