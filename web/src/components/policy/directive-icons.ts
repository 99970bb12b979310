// A fixed icon per directive (spec "CSP rules generator panel": directive icons are fixed per directive).
import { ownValue } from '@csp/shared/maps/dictionary';
import {
  AppWindow,
  Box,
  Brush,
  CircleArrowUp,
  Code,
  Cpu,
  FileCode,
  Film,
  Flag,
  Image,
  Layers,
  Link,
  type LucideIcon,
  Megaphone,
  MousePointerClick,
  Network,
  Package,
  Paintbrush,
  Palette,
  PanelsTopLeft,
  Send,
  Settings2,
  Shield,
  ShieldCheck,
  SquareDashed,
  Type,
} from 'lucide-react';

export const DIRECTIVE_ICONS: Record<string, LucideIcon> = {
  'default-src': Shield,
  'script-src': FileCode,
  'script-src-elem': Code,
  'script-src-attr': MousePointerClick,
  'style-src': Palette,
  'style-src-elem': Paintbrush,
  'style-src-attr': Brush,
  'img-src': Image,
  'font-src': Type,
  'connect-src': Network,
  'media-src': Film,
  'object-src': Box,
  'frame-src': AppWindow,
  'child-src': Layers,
  'worker-src': Cpu,
  'manifest-src': Package,
  'base-uri': Link,
  sandbox: SquareDashed,
  'form-action': Send,
  'frame-ancestors': PanelsTopLeft,
  'upgrade-insecure-requests': CircleArrowUp,
  'require-trusted-types-for': ShieldCheck,
  'trusted-types': ShieldCheck,
  'report-uri': Flag,
  'report-to': Megaphone,
};

/** By own key: a saved directive may be named anything, and `constructor` is no icon. */
export function directiveIcon(directive: string): LucideIcon {
  return ownValue(DIRECTIVE_ICONS, directive) ?? Settings2;
}
