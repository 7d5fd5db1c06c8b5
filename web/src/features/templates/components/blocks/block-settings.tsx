import { labelOf, type Align, type Block } from '../../model/blocks.ts';
import { setColumnCount } from '../../model/block-tree.ts';
import { FieldProblem } from '../field-errors.tsx';
import { ColorField, NumberField, SelectField, TextField } from './block-fields.tsx';
import { HtmlField } from './html-field.tsx';
import { SocialLinks } from './social-links.tsx';

/** A change to the selected block; `field` groups quick changes of one field into one undo step. */
type Change = (block: Block, field: string) => void;

const ALIGNS = [
  ['', 'Default'],
  ['left', 'Left'],
  ['center', 'Centre'],
  ['right', 'Right'],
] as const;

const VARIABLES_HINT = 'Liquid variables work here: {{ firstName ?? "there" }}.';

function AlignField({ path, value, onChange }: { path: string; value?: Align; onChange: (a?: Align) => void }) {
  return (
    <SelectField
      label="Alignment"
      path={`${path}.align`}
      value={value ?? ''}
      options={ALIGNS}
      onChange={(a) => onChange(a === '' ? undefined : a)}
    />
  );
}

/** The fields of one block type. */
function Fields({ block, path, change }: { block: Block; path: string; change: Change }) {
  const p = (field: string) => `${path}.${field}`;
  switch (block.type) {
    case 'heading':
      return (
        <>
          <TextField
            label="Heading text"
            path={p('text')}
            value={block.text}
            hint={VARIABLES_HINT}
            onChange={(text) => change({ ...block, text }, 'text')}
          />
          <SelectField
            label="Level"
            path={p('level')}
            value={String(block.level) as '1' | '2' | '3'}
            options={[
              ['1', 'Title (1)'],
              ['2', 'Section (2)'],
              ['3', 'Small (3)'],
            ]}
            onChange={(level) => change({ ...block, level: Number(level) as 1 | 2 | 3 }, 'level')}
          />
          <AlignField path={path} value={block.align} onChange={(align) => change({ ...block, align }, 'align')} />
        </>
      );
    case 'text':
      return (
        <HtmlField
          label="Text"
          path={p('html')}
          value={block.html}
          hint={VARIABLES_HINT}
          onChange={(html) => change({ ...block, html }, 'html')}
        />
      );
    case 'button':
      return (
        <>
          <TextField
            label="Button text"
            path={p('text')}
            value={block.text}
            onChange={(text) => change({ ...block, text }, 'text')}
          />
          <TextField
            label="Link (URL)"
            type="url"
            path={p('url')}
            value={block.url}
            hint="http(s) or mailto, or a variable such as {{ manageUrl }}."
            onChange={(url) => change({ ...block, url }, 'url')}
          />
          <AlignField path={path} value={block.align} onChange={(align) => change({ ...block, align }, 'align')} />
          <ColorField
            label="Button colour"
            path={p('color')}
            value={block.color}
            onChange={(color) => change({ ...block, color }, 'color')}
          />
          <ColorField
            label="Text colour"
            path={p('textColor')}
            value={block.textColor}
            onChange={(textColor) => change({ ...block, textColor }, 'textColor')}
          />
        </>
      );
    case 'image':
      return (
        <>
          <TextField
            label="Image URL"
            type="url"
            path={p('src')}
            value={block.src}
            hint="An https address of the image; it is shown as it is at that address."
            onChange={(src) => change({ ...block, src }, 'src')}
          />
          <TextField
            label="Alternative text"
            path={p('alt')}
            value={block.alt}
            hint="What the image shows, for readers who do not see it."
            onChange={(alt) => change({ ...block, alt }, 'alt')}
          />
          <TextField
            label="Link (URL, optional)"
            type="url"
            path={p('url')}
            value={block.url ?? ''}
            onChange={(url) => change({ ...block, url: url || undefined }, 'url')}
          />
          <NumberField
            label="Width in px (optional)"
            path={p('width')}
            min={16}
            max={800}
            value={block.width}
            onChange={(width) => change({ ...block, width }, 'width')}
          />
        </>
      );
    case 'divider':
      return <p className="muted">A horizontal line across the content.</p>;
    case 'spacer':
      return (
        <NumberField
          label="Height in px"
          path={p('height')}
          min={4}
          max={200}
          value={block.height}
          onChange={(height) => change({ ...block, height: height ?? Number.NaN }, 'height')}
        />
      );
    case 'columns':
      return (
        <>
          <SelectField
            label="Columns"
            path={p('columns')}
            value={String(block.columns.length) as '2' | '3'}
            options={[
              ['2', 'Two'],
              ['3', 'Three'],
            ]}
            onChange={(n) => change(setColumnCount(block, Number(n) as 2 | 3), 'columns')}
          />
          <p className="hint">Fewer columns move the blocks of those removed into the last one kept.</p>
        </>
      );
    case 'social':
      return <SocialLinks block={block} path={path} onChange={(links, field) => change({ ...block, links }, field)} />;
    case 'footer':
      return (
        <>
          <TextField
            label="Postal address"
            path={p('address')}
            value={block.address ?? ''}
            onChange={(address) => change({ ...block, address: address || undefined }, 'address')}
          />
          <HtmlField
            label="Footer text (optional)"
            path={p('html')}
            value={block.html ?? ''}
            hint="Empty: links to unsubscribe and to manage subscriptions, in the reader's language."
            onChange={(html) => change({ ...block, html: html || undefined }, 'html')}
          />
        </>
      );
    case 'html':
      return (
        <HtmlField
          label="HTML"
          path={p('html')}
          value={block.html}
          toolbar={false}
          hint="Scripts, event handlers and javascript: links are removed."
          onChange={(html) => change({ ...block, html }, 'html')}
        />
      );
  }
}

/** The side panel of the selected block: its settings, and the problems the API found in it. */
export function BlockSettings({ block, path, onChange }: { block: Block | null; path: string; onChange: Change }) {
  if (!block) {
    return (
      <section className="block-settings" aria-label="Block settings">
        <h3>Block settings</h3>
        <p className="muted">Select a block to change it.</p>
      </section>
    );
  }
  return (
    <section className="block-settings" aria-label="Block settings">
      <h3>{labelOf(block.type)} settings</h3>
      <FieldProblem path={path} id={`${block.id}-problem`} />
      <Fields key={block.id} block={block} path={path} change={onChange} />
    </section>
  );
}
