import {
  Code,
  Columns2,
  Heading,
  Image,
  Minus,
  MousePointerClick,
  MoveVertical,
  PanelBottom,
  Share2,
  Type,
  type LucideIcon,
} from 'lucide-react';
import type { BlockType } from '../../model/blocks.ts';

/** The icon of each block type, in the palette and the list. */
export const BLOCK_ICONS: Record<BlockType, LucideIcon> = {
  heading: Heading,
  text: Type,
  button: MousePointerClick,
  image: Image,
  divider: Minus,
  spacer: MoveVertical,
  columns: Columns2,
  social: Share2,
  footer: PanelBottom,
  html: Code,
};
