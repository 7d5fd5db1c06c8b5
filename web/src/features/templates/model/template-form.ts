// A template in the editor (its details and its message) and the requests that save it.
import type { Template, TemplateInput, TemplateType, VersionContent } from '../api.ts';
import { blankMessage, sameMessage, toContentInput, toMessageForm, type MessageForm } from './message.ts';

/** The fields beside the message: name and type change in place, the sender makes a version like the content. */
export interface Details {
  name: string;
  type: TemplateType;
  from: string;
  fromName: string;
  replyTo: string;
}

export interface TemplateForm {
  details: Details;
  message: MessageForm;
}

/** What the editor works on: the draft when there is one, else the published version. */
export const workingCopy = (t: Template): VersionContent => t.draft ?? t;

export function toTemplateForm(t: Template): TemplateForm {
  const w = workingCopy(t);
  return {
    details: { name: t.name, type: t.type, from: w.from ?? '', fromName: w.fromName ?? '', replyTo: w.replyTo ?? '' },
    message: toMessageForm(w),
  };
}

export const blankTemplateForm = (): TemplateForm => ({
  details: { name: '', type: 'TRANSACTIONAL', from: '', fromName: '', replyTo: '' },
  message: blankMessage('html'),
});

const orNull = (s: string) => (s.trim() === '' ? null : s.trim());

const sender = (d: Details) => ({ from: orNull(d.from), fromName: orNull(d.fromName), replyTo: orNull(d.replyTo) });

/** Whether the message or the sender differ: a save of them makes a version. */
export function contentChanged(a: TemplateForm, b: TemplateForm): boolean {
  return !sameMessage(a.message, b.message) || JSON.stringify(sender(a.details)) !== JSON.stringify(sender(b.details));
}

/** The body of a create (version 1, published). */
export function createBody(form: TemplateForm, sampleData: Record<string, unknown>) {
  const { name, type } = form.details;
  return {
    name,
    type,
    sampleData,
    ...toContentInput(form.message),
    subject: form.message.subject,
    ...sender(form.details),
  };
}

/**
 * The body of a save: name, type and sample data in place, and the content and sender as the draft when they
 * changed from what the editor opened (`saved`), so saving sample data alone makes no version.
 */
export function draftBody(form: TemplateForm, saved: TemplateForm, sampleData: Record<string, unknown>): TemplateInput {
  const { name, type } = form.details;
  const meta = { name, type, sampleData };
  if (!contentChanged(form, saved)) return meta;
  return { ...meta, ...toContentInput(form.message), ...sender(form.details), publish: false };
}
