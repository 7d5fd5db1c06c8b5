// The HTML of a signup form: its hosted page, the snippet to embed elsewhere (the same form, posting to the hosted
// page, working without JavaScript), and the pages after a submission. Everything the owner wrote (labels, options,
// the consent text, the message) is escaped: it is shown as text.
import type { FieldError } from '../../lib/errors.ts';
import { escapeHtml as escape, hostedPage } from '../../lib/hosted-page.ts';
import { t, type Language, type MessageKey } from '../../lib/i18n/index.ts';
import type { FormRow } from './forms.repo.ts';
import { HONEYPOT_FIELD, POW_FIELD } from './forms.schemas.ts';
import { FIELD_CODES, MAX_TEXT_LENGTH, type PostedValues } from './forms.submit.ts';

/** Where the files of forms' pages are served (beside the pages, not under /f/, whose next segment is a form id). */
export const ASSETS_PATH = '/f-assets';

interface FormMarkup {
  form: FormRow;
  lang: Language;
  /** Where the form and its widget are: '' on the hosted page (same origin), PUBLIC_URL in a snippet. */
  base: string;
  values?: PostedValues | undefined;
  errors?: FieldError[] | undefined;
  /** A snippet on another site: the honeypot hidden by its own style (the site has not our stylesheet). */
  embed?: boolean;
}

const str = (value: unknown) => (typeof value === 'string' ? value : '');
const checked = (value: unknown) => value === true || (typeof value === 'string' && value !== '' && value !== 'false');

function errorText(lang: Language, error: FieldError | undefined): string {
  if (!error) return '';
  const key: MessageKey = FIELD_CODES[error.code as keyof typeof FIELD_CODES] ?? 'form.required';
  return t(lang, key);
}

/** One field: its label, its control with the posted value, and its message when it has one. */
function fieldHtml(m: FormMarkup, field: FormRow['fields'][number], index: number): string {
  const id = `herald-${m.form.id.slice(0, 8)}-${index}`;
  const error = m.errors?.find((e) => e.field === field.key);
  const message = error ? `<span class="herald-error" id="${id}-error">${errorText(m.lang, error)}</span>` : '';
  const aria = error ? ` aria-invalid="true" aria-describedby="${id}-error"` : '';
  const required = field.required ? ' required' : '';
  const name = escape(field.key);
  const label = escape(field.label);
  const value = m.values?.[field.key];
  if (field.type === 'checkbox') {
    const on = checked(value) ? ' checked' : '';
    return (
      `<p class="herald-field herald-checkbox"><label><input type="checkbox" name="${name}" value="yes"` +
      `${on}${required}${aria}> ${label}</label>${message}</p>`
    );
  }
  const labelHtml = `<label for="${id}">${label}${field.required ? ' *' : ''}</label>`;
  if (field.type === 'select') {
    const options = (field.options ?? [])
      .map((o) => `<option${str(value) === o ? ' selected' : ''}>${escape(o)}</option>`)
      .join('');
    const choose = `<option value="">${t(m.lang, 'form.choose')}</option>`;
    return (
      `<p class="herald-field">${labelHtml}<select id="${id}" name="${name}"${required}${aria}>${choose}${options}` +
      `</select>${message}</p>`
    );
  }
  const type = field.type === 'email' ? 'email" autocomplete="email' : 'text';
  return (
    `<p class="herald-field">${labelHtml}<input id="${id}" type="${type}" name="${name}" ` +
    `value="${escape(str(value))}" maxlength="${MAX_TEXT_LENGTH}"${required}${aria}>${message}</p>`
  );
}

/** The <form>: fields, honeypot, the widget when it asks for proof of work, the consent text and the button. */
export function formHtml(m: FormMarkup): string {
  const { form, lang, base } = m;
  const problems = m.errors?.length ? `<p class="herald-problems" role="alert">${t(lang, 'form.problems')}</p>` : '';
  const hidden = m.embed ? ' style="position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden"' : '';
  const honeypot =
    `<p class="herald-hp" aria-hidden="true"${hidden}><label>${t(lang, 'form.honeypot')} <input type="text" ` +
    `name="${HONEYPOT_FIELD}" tabindex="-1" autocomplete="off"></label></p>`;
  const powError = m.errors?.find((e) => e.field === POW_FIELD);
  const pow =
    form.captcha === 'pow'
      ? `<altcha-widget challenge="${escape(`${base}/f/${form.id}/challenge`)}" name="${POW_FIELD}" ` +
        `language="${lang}"></altcha-widget><noscript><p>${t(lang, 'form.pow.noScript')}</p></noscript>` +
        (powError ? `<p class="herald-error" role="alert">${errorText(lang, powError)}</p>` : '')
      : '';
  const consent = form.consentText ? `<p class="herald-consent">${escape(form.consentText)}</p>` : '';
  return (
    `<form class="herald-form" method="post" action="${escape(`${base}/f/${form.id}`)}" accept-charset="utf-8">` +
    `${problems}${form.fields.map((f, i) => fieldHtml(m, f, i)).join('')}${honeypot}${pow}${consent}` +
    `<p><button type="submit">${t(lang, 'form.submit')}</button></p></form>`
  );
}

/** The script tag of the proof-of-work widget, for a page served from `base`. */
export const widgetScript = (base: string) =>
  `<script type="module" src="${escape(`${base}${ASSETS_PATH}/widget.js`)}"></script>`;

/** The hosted page: the form's name as its heading, and the form. */
export function formPage(m: Omit<FormMarkup, 'base' | 'embed'>): string {
  const head =
    `<link rel="stylesheet" href="${ASSETS_PATH}/form.css">` + (m.form.captcha === 'pow' ? widgetScript('') : '');
  return hostedPage(m.lang, m.form.name, `<h1>${escape(m.form.name)}</h1>${formHtml({ ...m, base: '' })}`, head);
}

/** The page after a submission: the form's message, or the language's thanks (or "confirm by email"). */
export function donePage(lang: Language, form: FormRow, confirm: boolean): string {
  const message = form.successMessage
    ? escape(form.successMessage)
    : t(lang, confirm ? 'form.done.confirm' : 'form.done.subscribed');
  return hostedPage(lang, t(lang, 'form.done.title'), `<h1>${t(lang, 'form.done.title')}</h1><p>${message}</p>`);
}

/** A form that cannot take signups now (its project's double opt-in is gone). */
export function unavailablePage(lang: Language, form: FormRow): string {
  return hostedPage(lang, form.name, `<h1>${escape(form.name)}</h1><p>${t(lang, 'form.unavailable')}</p>`);
}

/** No such form. */
export function missingPage(lang: Language): string {
  return hostedPage(
    lang,
    t(lang, 'form.missing.title'),
    `<h1>${t(lang, 'form.missing.title')}</h1><p>${t(lang, 'form.missing.body')}</p>`,
  );
}

/** The stylesheet of hosted forms (served as a file: the pages' policy admits no inline style but their frame's). */
export const FORM_CSS =
  '.herald-field{margin:0 0 1rem}.herald-field label{display:block;font-weight:600;margin-bottom:.25rem}' +
  '.herald-checkbox label{font-weight:400}' +
  '.herald-field input[type=text],.herald-field input[type=email],.herald-field select{box-sizing:border-box;' +
  'width:100%;font:inherit;padding:.55rem .6rem;border:1px solid #8a93a3;border-radius:6px}' +
  '.herald-field [aria-invalid=true]{border-color:#b42318}.herald-error{display:block;color:#b42318;' +
  'font-size:.9rem;margin-top:.25rem}.herald-problems{color:#b42318;font-weight:600}' +
  '.herald-hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}' +
  '.herald-consent{color:#5b6474;font-size:.9rem}altcha-widget{display:block;margin:0 0 1rem}' +
  'button{width:100%}@media (min-width:480px){button{width:auto}}';
