import { useProjectQuery } from '../../../shared/api/queries.ts';
import { Link } from '../../../shared/router.tsx';
import { LAYOUTS, listLayouts } from '../../layouts/api.ts';
import type { ContentFormat, LayoutChoice } from '../model/content.ts';
import { FieldProblem, useInvalid } from './field-errors.tsx';

const NONE = 'none';

/**
 * The layout a message is put in: the project's default, none, or one of the layouts that fit its format (html
 * layouts for HTML, mjml layouts for MJML and blocks). `savedDefault` false: a saved message named a layout (or
 * none), and the API keeps that choice when a request leaves the layout out, so the default cannot be chosen again.
 */
export function LayoutPicker({
  id,
  value,
  format,
  savedDefault,
  onChange,
}: {
  id: string;
  value: LayoutChoice;
  format: ContentFormat;
  savedDefault: boolean;
  onChange: (layout: LayoutChoice) => void;
}) {
  const layouts = useProjectQuery([...LAYOUTS, 'list'], listLayouts);
  const invalid = useInvalid('layoutId', `${id}-problem`);
  const all = layouts.data?.items ?? [];
  const fits = all.filter((l) => (l.format === 'html') === (format === 'html'));
  const chosen = typeof value === 'string' ? all.find((l) => l.id === value) : undefined;
  const fallback = all.find((l) => l.isDefault);
  const selectValue = value === undefined ? '' : value === null ? NONE : value;
  return (
    <div className="field">
      <label htmlFor={id}>Layout</label>
      <select
        id={id}
        value={selectValue}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value === NONE ? null : e.target.value)}
        {...invalid}
      >
        <option value="" disabled={!savedDefault && value !== undefined}>
          Project default{fallback ? ` (${fallback.name})` : ' (none set)'}
        </option>
        <option value={NONE}>No layout</option>
        {fits.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name}
          </option>
        ))}
        {typeof value === 'string' && !fits.some((l) => l.id === value) && (
          <option value={value}>{chosen ? `${chosen.name} (${chosen.format}: does not fit)` : 'A layout'}</option>
        )}
      </select>
      <p className="hint">
        The frame the message is put in (header, footer, styles): <Link to="/layouts">layouts</Link>.
        {fallback && !fits.includes(fallback) && ` The default (${fallback.name}) does not fit this format.`}
      </p>
      <FieldProblem path="layoutId" id={`${id}-problem`} />
    </div>
  );
}
