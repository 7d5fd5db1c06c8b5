import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { canonicalTag, type MessageForm, type TranslationForm } from '../model/message.ts';
import { ContentEditor } from './content-editor.tsx';
import { FieldProblem, useHasErrorsUnder, useInvalid } from './field-errors.tsx';

interface TabsProps {
  value: MessageForm;
  onChange: (form: MessageForm) => void;
  /** Prefix of the controls' ids: `t-` or `c-`. */
  idPrefix: string;
  readOnly: boolean;
  htmlHint?: ReactNode;
}

function SubjectField({
  id,
  label,
  path,
  value,
  onChange,
  required,
  placeholder,
  disabled,
}: {
  id: string;
  label: string;
  path: string;
  value: string;
  onChange: (subject: string) => void;
  required: boolean;
  placeholder?: string;
  disabled: boolean;
}) {
  const invalid = useInvalid(path, `${id}-problem`);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        required={required}
        disabled={disabled}
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        {...invalid}
      />
      <FieldProblem path={path} id={`${id}-problem`} />
    </div>
  );
}

function Tab({
  id,
  label,
  active,
  path,
  onSelect,
}: {
  id: string;
  label: string;
  active: boolean;
  path: string | null;
  onSelect: () => void;
}) {
  const invalid = useHasErrorsUnder(path ?? '\u0000');
  return (
    <button
      type="button"
      role="tab"
      id={id}
      aria-selected={active}
      aria-controls={`${id}-panel`}
      tabIndex={active ? 0 : -1}
      className={invalid ? 'tab invalid' : 'tab'}
      onClick={onSelect}
    >
      {label}
      {invalid && <span className="visually-hidden"> (has a problem)</span>}
      {invalid && <span aria-hidden="true"> !</span>}
    </button>
  );
}

/** Adds a translation by its language tag. */
function AddTranslation({
  taken,
  onAdd,
  idPrefix,
}: {
  taken: string[];
  onAdd: (tag: string) => void;
  idPrefix: string;
}) {
  const [tag, setTag] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = () => {
    const canonical = canonicalTag(tag);
    if (!canonical) return setProblem('Not a language tag: write one such as de, fr or pt-BR.');
    if (taken.includes(canonical)) return setProblem(`There is a ${canonical} translation already.`);
    setProblem(null);
    setTag('');
    onAdd(canonical);
  };
  const id = `${idPrefix}new-translation`;
  return (
    <div className="add-translation">
      <label htmlFor={id}>Language tag</label>
      <input
        id={id}
        value={tag}
        placeholder="de, pt-BR"
        size={8}
        aria-invalid={problem !== null || undefined}
        onChange={(e) => setTag(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          e.preventDefault();
          add();
        }}
      />
      <button type="button" className="secondary small" disabled={tag.trim() === ''} onClick={add}>
        Add translation
      </button>
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

/** A translation's tab: its subject, and its own content or the default's. */
function TranslationPanel({
  t,
  props,
  set,
  remove,
}: {
  t: TranslationForm;
  props: TabsProps;
  set: (t: TranslationForm) => void;
  remove: () => void;
}) {
  const { value, idPrefix, readOnly } = props;
  const prefix = `translations.${t.tag}.`;
  return (
    <>
      <SubjectField
        id={`${idPrefix}${t.tag}-subject`}
        label={`Subject (${t.tag})`}
        path={`${prefix}subject`}
        value={t.subject}
        required={false}
        disabled={readOnly}
        placeholder={`Empty: “${value.subject}”`}
        onChange={(subject) => set({ ...t, subject })}
      />
      {t.source ? (
        <>
          <ContentEditor
            format={value.format}
            source={t.source}
            onChange={(source) => set({ ...t, source })}
            idPrefix={`${idPrefix}${t.tag}-`}
            errorPrefix={prefix}
            readOnly={readOnly}
            htmlLabel={`Body (${t.tag})`}
            htmlHint={props.htmlHint}
          />
          {!readOnly && (
            <button type="button" className="secondary small" onClick={() => set({ ...t, source: null })}>
              Use the default content
            </button>
          )}
        </>
      ) : (
        <p className="muted">
          This translation uses the default content.{' '}
          {!readOnly && (
            <button type="button" className="secondary small" onClick={() => set({ ...t, source: value.source })}>
              Translate the content
            </button>
          )}
        </p>
      )}
      {!readOnly && (
        <div className="actions translation-remove">
          <button type="button" className="danger small" onClick={remove}>
            Remove the {t.tag} translation
          </button>
        </div>
      )}
    </>
  );
}

/**
 * The message and its translations, a tab each: the default's subject and content, then each language's, in the
 * same editor; a translation can be added by its tag and removed.
 */
export function TranslationTabs(props: TabsProps) {
  const { value, onChange, idPrefix, readOnly } = props;
  const [active, setActive] = useState<string | null>(null);
  const tags = value.translations.map((t) => t.tag);
  const current = active !== null && tags.includes(active) ? active : null;
  const order = [null, ...tags];
  const tabId = (tag: string | null) => `${idPrefix}tab-${tag ?? 'default'}`;
  const arrows = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = order[(order.indexOf(current) + step + order.length) % order.length] ?? null;
    setActive(next);
    document.getElementById(tabId(next))?.focus();
  };
  const setTranslation = (t: TranslationForm) =>
    onChange({ ...value, translations: value.translations.map((x) => (x.tag === t.tag ? t : x)) });
  const translation = value.translations.find((t) => t.tag === current);
  return (
    <div className="translation-tabs">
      <div className="tabs-bar">
        <div role="tablist" aria-label="Languages" onKeyDown={arrows}>
          {order.map((tag) => (
            <Tab
              key={tag ?? ''}
              id={tabId(tag)}
              label={tag ?? 'Default'}
              active={tag === current}
              path={tag === null ? null : `translations.${tag}`}
              onSelect={() => setActive(tag)}
            />
          ))}
        </div>
        {!readOnly && (
          <AddTranslation
            taken={tags}
            idPrefix={idPrefix}
            onAdd={(tag) => {
              onChange({ ...value, translations: [...value.translations, { tag, subject: '', source: null }] });
              setActive(tag);
            }}
          />
        )}
      </div>
      <div role="tabpanel" id={`${tabId(current)}-panel`} aria-labelledby={tabId(current)} className="tab-panel">
        {translation ? (
          <TranslationPanel
            key={translation.tag}
            t={translation}
            props={props}
            set={setTranslation}
            remove={() => onChange({ ...value, translations: value.translations.filter((t) => t !== translation) })}
          />
        ) : (
          <>
            <SubjectField
              id={`${idPrefix}subject`}
              label="Subject"
              path="subject"
              value={value.subject}
              required
              disabled={readOnly}
              onChange={(subject) => onChange({ ...value, subject })}
            />
            <ContentEditor
              format={value.format}
              source={value.source}
              idPrefix={idPrefix}
              errorPrefix=""
              readOnly={readOnly}
              htmlHint={props.htmlHint}
              onChange={(source) => onChange({ ...value, source })}
            />
          </>
        )}
      </div>
    </div>
  );
}
