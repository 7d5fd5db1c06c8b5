import type { TemplateType } from '../api.ts';
import type { Details } from '../model/template-form.ts';
import { FieldProblem, useInvalid } from './field-errors.tsx';

function Input({
  id,
  label,
  path,
  value,
  onChange,
  type = 'text',
  required = false,
  placeholder,
}: {
  id: string;
  label: string;
  path: string;
  value: string;
  onChange: (v: string) => void;
  type?: 'text' | 'email';
  required?: boolean;
  placeholder?: string;
}) {
  const invalid = useInvalid(path, `${id}-problem`);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        required={required}
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        {...invalid}
      />
      <FieldProblem path={path} id={`${id}-problem`} />
    </div>
  );
}

/** A template's name, type and sender. */
export function TemplateDetails({ value, onChange }: { value: Details; onChange: (d: Details) => void }) {
  const set =
    <K extends keyof Details>(key: K) =>
    (v: Details[K]) =>
      onChange({ ...value, [key]: v });
  return (
    <div className="grid-2">
      <Input id="t-name" label="Name" path="name" required value={value.name} onChange={set('name')} />
      <div className="field">
        <label htmlFor="t-type">Type</label>
        <select id="t-type" value={value.type} onChange={(e) => set('type')(e.target.value as TemplateType)}>
          <option value="TRANSACTIONAL">Transactional</option>
          <option value="MARKETING">Marketing (unsubscribe link, tracking)</option>
        </select>
      </div>
      <Input
        id="t-from"
        label="From address"
        path="from"
        type="email"
        placeholder="hello@mail.example.com"
        value={value.from}
        onChange={set('from')}
      />
      <Input id="t-from-name" label="From name" path="fromName" value={value.fromName} onChange={set('fromName')} />
      <Input
        id="t-reply"
        label="Reply-To"
        path="replyTo"
        type="email"
        value={value.replyTo}
        onChange={set('replyTo')}
      />
    </div>
  );
}
