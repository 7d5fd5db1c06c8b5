// The builder's working copy of a form: what the person edits before saving, and its body for the API.
import type { Body } from '../../../shared/api/operations.ts';
import type { Form } from '../../../shared/api/types.ts';

export type FieldType = Form['fields'][number]['type'];
export interface DraftField {
  /** A stable identity for React while keys are edited. */
  uid: number;
  key: string;
  label: string;
  type: FieldType;
  required: boolean;
  /** Options of a select, one per line. */
  options: string;
}
export interface Draft {
  name: string;
  fields: DraftField[];
  topicIds: string[];
  segmentId: string;
  doubleOptIn: boolean;
  captcha: Form['captcha'];
  successMessage: string;
  redirectUrl: string;
  locale: string;
  consentText: string;
}

let lastUid = 0;
export const newField = (type: FieldType, key: string, label: string): DraftField => ({
  uid: ++lastUid,
  key,
  label,
  type,
  required: type === 'email',
  options: '',
});

/** A new form: one email field, no captcha. */
export const emptyDraft = (): Draft => ({
  name: '',
  fields: [newField('email', 'email', 'Email')],
  topicIds: [],
  segmentId: '',
  doubleOptIn: false,
  captcha: 'none',
  successMessage: '',
  redirectUrl: '',
  locale: '',
  consentText: '',
});

export const draftOf = (form: Form): Draft => ({
  name: form.name,
  fields: form.fields.map((f) => ({
    ...newField(f.type, f.key, f.label),
    required: f.required,
    options: (f.options ?? []).join('\n'),
  })),
  topicIds: form.topicIds,
  segmentId: form.segmentId ?? '',
  doubleOptIn: form.doubleOptIn,
  captcha: form.captcha,
  successMessage: form.successMessage ?? '',
  redirectUrl: form.redirectUrl ?? '',
  locale: form.locale ?? '',
  consentText: form.consentText ?? '',
});

export const optionsOf = (field: DraftField) =>
  field.options
    .split('\n')
    .map((o) => o.trim())
    .filter(Boolean);

/** The draft as the API takes it (empty texts are none). */
export function bodyOf(draft: Draft): Body<'/forms', 'post'> {
  const orNull = (value: string) => value.trim() || null;
  return {
    name: draft.name.trim(),
    fields: draft.fields.map((f) => ({
      key: f.key.trim(),
      label: f.label.trim(),
      type: f.type,
      required: f.required,
      ...(f.type === 'select' ? { options: optionsOf(f) } : {}),
    })),
    topicIds: draft.topicIds,
    segmentId: orNull(draft.segmentId),
    doubleOptIn: draft.doubleOptIn,
    captcha: draft.captcha,
    successMessage: orNull(draft.successMessage),
    redirectUrl: orNull(draft.redirectUrl),
    locale: orNull(draft.locale),
    consentText: orNull(draft.consentText),
  };
}
