import type { DocumentSettings as Settings } from '../../model/blocks.ts';
import { ColorField, NumberField, TextField } from './block-fields.tsx';

/** The settings of the whole email: content width, colours and font. */
export function DocumentSettings({
  value,
  path,
  onChange,
}: {
  value: Settings | undefined;
  /** The API's name of the settings in errors: `content.settings`. */
  path: string;
  onChange: (settings: Settings, field: string) => void;
}) {
  const settings = value ?? {};
  const set = <K extends keyof Settings>(key: K, v: Settings[K]) => onChange({ ...settings, [key]: v }, key);
  return (
    <details className="document-settings">
      <summary>Email settings: width, colours, font</summary>
      <NumberField
        label="Content width in px"
        path={`${path}.width`}
        min={480}
        max={800}
        value={settings.width}
        hint="480 to 800; 600 when empty."
        onChange={(width) => set('width', width)}
      />
      <TextField
        label="Font"
        path={`${path}.fontFamily`}
        value={settings.fontFamily ?? ''}
        hint="A font list, e.g. Helvetica, Arial, sans-serif."
        onChange={(font) => set('fontFamily', font || undefined)}
      />
      <ColorField
        label="Background"
        path={`${path}.backgroundColor`}
        value={settings.backgroundColor}
        onChange={(c) => set('backgroundColor', c)}
      />
      <ColorField
        label="Content background"
        path={`${path}.contentColor`}
        value={settings.contentColor}
        onChange={(c) => set('contentColor', c)}
      />
      <ColorField
        label="Body text colour"
        path={`${path}.textColor`}
        value={settings.textColor}
        onChange={(c) => set('textColor', c)}
      />
      <ColorField
        label="Link colour"
        path={`${path}.linkColor`}
        value={settings.linkColor}
        hint="Links, and buttons without their own colour."
        onChange={(c) => set('linkColor', c)}
      />
    </details>
  );
}
