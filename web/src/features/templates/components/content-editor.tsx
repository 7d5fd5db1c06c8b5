import type { ReactNode } from 'react';
import { isBlockDocument } from '../model/blocks.ts';
import type { ContentFormat, Source } from '../model/content.ts';
import { BlockEditor } from './blocks/block-editor.tsx';
import { FieldProblem, useInvalid } from './field-errors.tsx';
import { MjmlEditor } from './mjml-editor.tsx';

export interface ContentEditorProps {
  format: ContentFormat;
  source: Source;
  onChange: (source: Source) => void;
  /** Prefix of the controls' ids: `t-` (a template), `c-` (a campaign), `t-de-` (a translation). */
  idPrefix: string;
  /** Prefix of the API's names of these fields in errors: '' or `translations.de.`. */
  errorPrefix: string;
  /** The HTML source's label. */
  htmlLabel?: string;
  /** Said under the HTML source: what variables it may use. */
  htmlHint?: ReactNode;
  readOnly?: boolean;
}

function HtmlSource({ source, onChange, idPrefix, errorPrefix, htmlLabel, htmlHint, readOnly }: ContentEditorProps) {
  const id = `${idPrefix}body`;
  const invalid = useInvalid(`${errorPrefix}body`, `${id}-problem`);
  return (
    <div className="field">
      <label htmlFor={id}>{htmlLabel ?? 'Body (HTML with Liquid)'}</label>
      <textarea
        id={id}
        className="code"
        rows={14}
        required
        readOnly={readOnly}
        spellCheck={false}
        value={source.body}
        onChange={(e) => onChange({ ...source, body: e.target.value })}
        {...invalid}
      />
      {htmlHint && <p className="hint">{htmlHint}</p>}
      <FieldProblem path={`${errorPrefix}body`} id={`${id}-problem`} />
    </div>
  );
}

/** One message's source in the editor of its format: HTML, MJML with its problems by line, or blocks. */
export function ContentEditor(props: ContentEditorProps) {
  const { format, source, onChange, idPrefix, errorPrefix, readOnly } = props;
  if (format === 'html') return <HtmlSource {...props} />;
  if (format === 'mjml')
    return (
      <MjmlEditor
        id={`${idPrefix}mjml`}
        label="MJML"
        value={typeof source.content === 'string' ? source.content : ''}
        onChange={(content) => onChange({ ...source, content })}
        errorPath={`${errorPrefix}content`}
        readOnly={readOnly ?? false}
      />
    );
  const doc = isBlockDocument(source.content) ? source.content : { version: 1 as const, blocks: [] };
  return (
    <BlockEditor
      value={doc}
      onChange={(content) => onChange({ ...source, content })}
      errorPath={`${errorPrefix}content`}
      readOnly={readOnly ?? false}
    />
  );
}
