import type { Campaign } from '../../../shared/api/types.ts';
import { PreviewPane, usePreview } from '../../templates/components/preview-pane.tsx';

/**
 * The saved campaign rendered by the server before it is sent: at desktop and phone width, with each variable's
 * fallback or as one contact, in each of its languages.
 */
export function CampaignPreview({ campaign }: { campaign: Campaign }) {
  const { subject, format, body, content, translations } = campaign;
  const layout = Object.prototype.hasOwnProperty.call(campaign, 'layoutId') ? { layoutId: campaign.layoutId } : {};
  const input = {
    subject,
    format,
    ...(format === 'html' ? { body } : { content }),
    ...layout,
    translations,
    data: {},
  };
  const preview = usePreview(input, Object.keys(translations ?? {}));
  return <PreviewPane preview={preview} title="Rendered preview, as saved" />;
}
