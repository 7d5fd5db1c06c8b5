// Checks a workflow definition when it is saved: every problem becomes a 422 naming its path
// (`steps.2.then.0.templateId`), so a stored definition always runs. Template existence is checked by the
// service afterwards (it needs the database); everything else is here.
import type { JsonObject } from '../../db/schema/index.ts';
import { AppError, type FieldError } from '../../lib/errors.ts';
import { isId, newId } from '../../lib/ids.ts';
import { validateTemplate } from '../../mail/render.ts';
import { checkAddress, parseIpLiteral } from '../../net/ip-policy.ts';
import { checkFilter, type Filter, type FilterRef } from '../segments/index.ts';
import { waitSeconds } from './workflows.duration.ts';
import {
  DEFINITION_LIMITS,
  STEP_TYPES,
  WEBHOOK_HEADER_LIMITS,
  WEBHOOK_METHODS,
  type Step,
  type StepType,
  type Trigger,
  type WebhookMethod,
} from './workflows.types.ts';

/** A template a SEND_EMAIL step names, with where it is named. */
export interface TemplateRef {
  id: string;
  path: string;
}

const STEP_ID = /^[A-Za-z0-9_-]{1,64}$/;
const HEADER_NAME = new RegExp(`^[!#$%&'*+.^_\`|~0-9A-Za-z-]{1,${WEBHOOK_HEADER_LIMITS.nameLength}}$`);
// Headers the client sets itself (framing, signing): a step may not replace them.
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
/** Control characters a header value cannot carry (a tab can). */
// eslint-disable-next-line no-control-regex
export const HEADER_CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;
const MAX_ERRORS = 30;
const MAX_DATA_BYTES = 65_536;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** Whether a string holds Liquid (else it is used as it is, unrendered). */
export const hasLiquid = (text: string) => text.includes('{{') || text.includes('{%');

class DefinitionChecker {
  readonly errors: FieldError[] = [];
  readonly templates: TemplateRef[] = [];
  /** The segments and topics the CONDITION filters name. */
  readonly filterRefs: FilterRef[] = [];
  private readonly ids = new Set<string>();
  private count = 0;

  constructor(private readonly allowPrivate: boolean) {}

  fail(field: string, message: string, code: string): void {
    if (this.errors.length < MAX_ERRORS) this.errors.push({ field, message, code });
  }

  list(value: unknown, path: string, depth: number): Step[] {
    if (!Array.isArray(value)) {
      this.fail(path, 'must be an array of steps', 'invalid_type');
      return [];
    }
    if (depth > DEFINITION_LIMITS.depth) {
      this.fail(path, `branches nest at most ${DEFINITION_LIMITS.depth} levels deep`, 'too_complex');
      return [];
    }
    return value.flatMap((item, i) => {
      const step = this.step(item, `${path}.${i}`, depth);
      return step ? [step] : [];
    });
  }

  private step(value: unknown, path: string, depth: number): Step | null {
    if (++this.count === DEFINITION_LIMITS.steps + 1)
      this.fail(path, `a workflow has at most ${DEFINITION_LIMITS.steps} steps`, 'too_complex');
    if (!isObject(value)) {
      this.fail(path, 'must be a step object with a type', 'invalid_type');
      return null;
    }
    const id = this.stepId(value.id, `${path}.id`);
    if (typeof value.type !== 'string' || !(STEP_TYPES as readonly string[]).includes(value.type)) {
      this.fail(`${path}.type`, `unknown step type; use one of ${STEP_TYPES.join(', ')}`, 'unknown_step_type');
      return null;
    }
    return this.body(value.type as StepType, id, value, path, depth);
  }

  private stepId(value: unknown, path: string): string {
    if (value === undefined || value === null) return newId();
    if (typeof value !== 'string' || !STEP_ID.test(value)) {
      this.fail(path, 'must be 1–64 letters, digits, "_" or "-"', 'invalid_step_id');
      return newId();
    }
    if (this.ids.has(value)) this.fail(path, 'is used by another step of this workflow', 'duplicate_step_id');
    this.ids.add(value);
    return value;
  }

  private body(type: StepType, id: string, v: Record<string, unknown>, path: string, depth: number): Step {
    switch (type) {
      case 'SEND_EMAIL': {
        if (typeof v.templateId !== 'string' || !isId(v.templateId))
          this.fail(`${path}.templateId`, 'must be a template id', 'unknown_template');
        else this.templates.push({ id: v.templateId.toLowerCase(), path: `${path}.templateId` });
        const data = this.data(v.data, `${path}.data`);
        return { id, type, templateId: String(v.templateId ?? '').toLowerCase(), ...(data ? { data } : {}) };
      }
      case 'DELAY':
        this.duration(v.duration, `${path}.duration`);
        return { id, type, duration: String(v.duration) };
      case 'WAIT_FOR_EVENT': {
        this.eventName(v.event, `${path}.event`);
        this.duration(v.timeout, `${path}.timeout`);
        const onEvent = v.onEvent === undefined ? undefined : this.list(v.onEvent, `${path}.onEvent`, depth + 1);
        const onTimeout =
          v.onTimeout === undefined ? undefined : this.list(v.onTimeout, `${path}.onTimeout`, depth + 1);
        return {
          id,
          type,
          event: String(v.event),
          timeout: String(v.timeout),
          ...(onEvent ? { onEvent } : {}),
          ...(onTimeout ? { onTimeout } : {}),
        };
      }
      case 'CONDITION': {
        const filter = this.filter(v.if, `${path}.if`);
        const then = this.list(v.then ?? [], `${path}.then`, depth + 1);
        const otherwise = v.else === undefined ? undefined : this.list(v.else, `${path}.else`, depth + 1);
        return { id, type, if: filter, then, ...(otherwise ? { else: otherwise } : {}) };
      }
      case 'UPDATE_CONTACT': {
        const data = this.data(v.data, `${path}.data`);
        if (v.subscribed !== undefined && typeof v.subscribed !== 'boolean')
          this.fail(`${path}.subscribed`, 'must be true or false', 'invalid_type');
        if (data === undefined && v.subscribed === undefined)
          this.fail(path, 'give data, subscribed or both', 'required');
        return {
          id,
          type,
          ...(data ? { data } : {}),
          ...(typeof v.subscribed === 'boolean' ? { subscribed: v.subscribed } : {}),
        };
      }
      case 'WEBHOOK':
        return { id, type, ...this.webhook(v, path) };
      case 'EXIT':
        return { id, type };
    }
  }

  private duration(value: unknown, path: string): void {
    if (waitSeconds(value) === null)
      this.fail(
        path,
        'must be a duration such as "30s", "30m", "12h", "7d" or "4w" (at most a year)',
        'invalid_duration',
      );
  }

  eventName(value: unknown, path: string): void {
    if (
      typeof value !== 'string' ||
      value.trim().length === 0 ||
      value.length > DEFINITION_LIMITS.eventName ||
      CONTROL.test(value)
    ) {
      this.fail(path, `must be an event name of 1–${DEFINITION_LIMITS.eventName} characters`, 'invalid_event');
    }
  }

  private data(value: unknown, path: string): JsonObject | undefined {
    if (value === undefined || value === null) return undefined;
    if (!isObject(value)) {
      this.fail(path, 'must be an object', 'invalid_type');
      return undefined;
    }
    if (Buffer.byteLength(JSON.stringify(value)) > MAX_DATA_BYTES)
      this.fail(path, `must be at most ${MAX_DATA_BYTES} bytes of JSON`, 'too_large');
    return value;
  }

  private filter(value: unknown, path: string): Filter {
    try {
      const checked = checkFilter(value, path);
      this.filterRefs.push(...checked.refs);
      return checked.filter;
    } catch (error) {
      if (!(error instanceof AppError) || !error.errors) throw error;
      for (const e of error.errors) this.fail(e.field, e.message, e.code);
      return value as Filter;
    }
  }

  private liquid(source: string, path: string): void {
    try {
      validateTemplate(source, { field: 'text' });
    } catch (error) {
      this.fail(
        path,
        `does not parse as Liquid: ${error instanceof Error ? error.message.replace(/^text: /, '') : String(error)}`,
        'template_syntax',
      );
    }
  }

  private webhook(v: Record<string, unknown>, path: string): Omit<Extract<Step, { type: 'WEBHOOK' }>, 'id' | 'type'> {
    const url = typeof v.url === 'string' ? v.url.trim() : '';
    if (url.length === 0 || url.length > 2048)
      this.fail(`${path}.url`, 'must be an http or https URL of at most 2048 characters', 'invalid_url');
    else if (hasLiquid(url)) this.liquid(url, `${path}.url`);
    else this.literalUrl(url, `${path}.url`);
    const method = v.method === undefined ? undefined : String(v.method).toUpperCase();
    if (method !== undefined && !(WEBHOOK_METHODS as readonly string[]).includes(method))
      this.fail(`${path}.method`, `must be one of ${WEBHOOK_METHODS.join(', ')}`, 'invalid_method');
    const headers = this.headers(v.headers, `${path}.headers`);
    let body: string | JsonObject | undefined;
    if (typeof v.body === 'string') {
      body = v.body;
      this.liquid(v.body, `${path}.body`);
    } else if (isObject(v.body)) body = this.data(v.body, `${path}.body`);
    else if (v.body !== undefined && v.body !== null)
      this.fail(`${path}.body`, 'must be a string (Liquid) or a JSON object', 'invalid_type');
    return {
      url,
      ...(method ? { method: method as WebhookMethod } : {}),
      ...(headers ? { headers } : {}),
      ...(body !== undefined ? { body } : {}),
    };
  }

  private literalUrl(url: string, path: string): void {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return this.fail(path, 'must be an http or https URL', 'invalid_url');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      return this.fail(path, 'must be an http or https URL', 'invalid_url');
    if (parsed.username || parsed.password)
      return this.fail(path, 'must not carry credentials; send them in a header', 'invalid_url');
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    const verdict = parseIpLiteral(host) ? checkAddress(host) : null;
    if (verdict && !verdict.allowed && !this.allowPrivate)
      this.fail(path, `${host} is ${verdict.reason}; WEBHOOK_ALLOW_PRIVATE=true allows it`, 'private_address');
  }

  private headers(value: unknown, path: string): Record<string, string> | undefined {
    if (value === undefined || value === null) return undefined;
    if (!isObject(value)) {
      this.fail(path, 'must be an object of header names and values', 'invalid_type');
      return undefined;
    }
    const { count, nameLength, valueLength } = WEBHOOK_HEADER_LIMITS;
    if (Object.keys(value).length > count)
      this.fail(path, `a WEBHOOK step has at most ${count} headers`, 'too_many_headers');
    const out: Record<string, string> = {};
    for (const [name, raw] of Object.entries(value)) {
      const field = `${path}.${name}`;
      if (!HEADER_NAME.test(name))
        this.fail(
          field,
          `is not a valid header name (1–${nameLength} letters, digits and !#$%&'*+.^_\`|~-)`,
          'invalid_header',
        );
      else if (RESERVED_HEADERS.has(name.toLowerCase()))
        this.fail(field, 'is set by Herald and cannot be given', 'reserved_header');
      else if (typeof raw !== 'string' || raw.length > valueLength || HEADER_CONTROL.test(raw))
        this.fail(
          field,
          `must be a string of at most ${valueLength} characters without control characters (CR, LF, NUL…)`,
          'invalid_header',
        );
      else {
        if (hasLiquid(raw)) this.liquid(raw, field);
        out[name] = raw;
      }
    }
    return out;
  }
}

/** The 422 of definition problems. */
function definitionError(errors: FieldError[]): AppError {
  const first = errors[0]!;
  return new AppError('VALIDATION_ERROR', `${first.field}: ${first.message}`, { errors });
}

/** Checks a trigger; 422 on `trigger` when it is missing or malformed. */
export function checkTrigger(value: unknown): Trigger {
  if (!isObject(value))
    throw definitionError([
      {
        field: 'trigger',
        message: 'is required: {"type": "EVENT", "event": "<name>"} or {"type": "MANUAL"}',
        code: 'required',
      },
    ]);
  if (value.type === 'MANUAL') return { type: 'MANUAL' };
  if (value.type === 'SEGMENT_ENTERED' || value.type === 'SEGMENT_EXITED') {
    if (typeof value.segmentId !== 'string' || !isId(value.segmentId))
      throw definitionError([{ field: 'trigger.segmentId', message: 'must be a segment id', code: 'unknown_segment' }]);
    return { type: value.type, segmentId: value.segmentId.toLowerCase() };
  }
  if (value.type !== 'EVENT')
    throw definitionError([
      {
        field: 'trigger.type',
        message: 'must be EVENT, MANUAL, SEGMENT_ENTERED or SEGMENT_EXITED',
        code: 'invalid_trigger',
      },
    ]);
  const checker = new DefinitionChecker(false);
  checker.eventName(value.event, 'trigger.event');
  if (checker.errors.length > 0) throw definitionError(checker.errors);
  return { type: 'EVENT', event: String(value.event) };
}

/**
 * Checks a step list and gives every step without an id one (ids must be unique in the workflow). Throws a
 * 422 listing every problem by path; returns the steps as stored and the templates, segments and topics they name.
 */
export function checkSteps(
  value: unknown,
  opts: { allowPrivate: boolean },
): { steps: Step[]; templates: TemplateRef[]; filterRefs: FilterRef[] } {
  const checker = new DefinitionChecker(opts.allowPrivate);
  const steps = checker.list(value, 'steps', 0);
  if (checker.errors.length > 0) throw definitionError(checker.errors);
  return { steps, templates: checker.templates, filterRefs: checker.filterRefs };
}

/** The 422 of templates a definition names that the project does not have (or that cannot send). */
export function templateErrors(refs: TemplateRef[], found: Map<string, { fromEmail: string | null }>): void {
  const errors: FieldError[] = [];
  for (const ref of refs) {
    const template = found.get(ref.id);
    if (!template)
      errors.push({ field: ref.path, message: 'no template of this project has this id', code: 'unknown_template' });
    else if (!template.fromEmail)
      errors.push({
        field: ref.path,
        message: 'the template has no sender (`from`); give it one first',
        code: 'template_without_sender',
      });
  }
  if (errors.length > 0) throw definitionError(errors);
}
