// The workflow definition language, as stored once validated (every step has its id).
import type { JsonObject } from '../../db/schema/index.ts';
import type { Filter } from '../segments/index.ts';

export const STEP_TYPES = [
  'SEND_EMAIL',
  'DELAY',
  'WAIT_FOR_EVENT',
  'CONDITION',
  'UPDATE_CONTACT',
  'WEBHOOK',
  'EXIT',
] as const;
export type StepType = (typeof STEP_TYPES)[number];

export type Step =
  | { id: string; type: 'SEND_EMAIL'; templateId: string; data?: JsonObject }
  | { id: string; type: 'DELAY'; duration: string }
  | { id: string; type: 'WAIT_FOR_EVENT'; event: string; timeout: string; onEvent?: Step[]; onTimeout?: Step[] }
  | { id: string; type: 'CONDITION'; if: Filter; then: Step[]; else?: Step[] }
  | { id: string; type: 'UPDATE_CONTACT'; data?: JsonObject; subscribed?: boolean }
  | {
      id: string;
      type: 'WEBHOOK';
      url: string;
      method?: WebhookMethod;
      headers?: Record<string, string>;
      body?: string | JsonObject;
    }
  | { id: string; type: 'EXIT' };

export const WEBHOOK_METHODS = ['POST', 'PUT', 'PATCH'] as const;
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];

export type Trigger =
  | { type: 'EVENT'; event: string }
  | { type: 'MANUAL' }
  | { type: 'SEGMENT_ENTERED' | 'SEGMENT_EXITED'; segmentId: string };

/** The event a segment trigger listens for (with its segmentId in the event's data). */
export const SEGMENT_TRIGGER_EVENTS = { SEGMENT_ENTERED: 'segment.entered', SEGMENT_EXITED: 'segment.exited' } as const;

/** Limits that keep one definition small enough to validate, store and plan quickly. */
export const DEFINITION_LIMITS = {
  /** Steps in all, branches included. */
  steps: 200,
  /** Nesting of CONDITION and WAIT_FOR_EVENT branches. */
  depth: 10,
  /** Characters of an event name. */
  eventName: 200,
} as const;

/**
 * Limits of a WEBHOOK step's headers: count, names and values as written are checked when the workflow is
 * saved; the rendered block when the step runs (receivers commonly refuse header sections past 8–16 KB).
 */
export const WEBHOOK_HEADER_LIMITS = {
  count: 20,
  /** Characters of a header name. */
  nameLength: 100,
  /** Characters of a value as written, Liquid included. */
  valueLength: 2048,
  /** Bytes of the rendered headers together, each counted as `Name: value` and a line break. */
  renderedBytes: 8192,
} as const;
