import type { ReactNode } from 'react';

/**
 * The app's icons as inline SVG (stroke in currentColor), so none depends on an emoji or
 * symbol font being installed: a glyph like ⚙ or 🗑 renders as tofu on a machine without
 * one. Decorative: the control carrying an icon has the accessible name.
 */
const PATHS = {
  plus: <path d="M8 3v10M3 8h10" />,
  pencil: <path d="M10.5 2.5l3 3L6 13H3v-3z" />,
  trash: <path d="M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.7 8.5h5.6l.7-8.5" />,
  gear: (
    <>
      <circle cx="8" cy="8" r="2.2" />
      <path d="M8 1.8v1.8M8 12.4v1.8M1.8 8h1.8M12.4 8h1.8M3.6 3.6l1.3 1.3M11.1 11.1l1.3 1.3M3.6 12.4l1.3-1.3M11.1 4.9l1.3-1.3" />
    </>
  ),
  home: <path d="M2.5 7.5L8 3l5.5 4.5M4 6.5V13h8V6.5" />,
  sparkle: <path d="M8 2l1.4 4.6L14 8l-4.6 1.4L8 14l-1.4-4.6L2 8l4.6-1.4z" />,
  pulse: <path d="M1.5 8.5h3l1.5-4 3 8 1.5-4h4" />,
  chevronRight: <path d="M6 3.5L10.5 8 6 12.5" />,
  chevronLeft: <path d="M10 3.5L5.5 8 10 12.5" />,
  chevronDown: <path d="M3.5 6L8 10.5 12.5 6" />,
  check: <path d="M3 8.5l3 3 7-7" />,
  cross: <path d="M4 4l8 8M12 4l-8 8" />,
  circle: <circle cx="8" cy="8" r="4.5" />,
  dashedCircle: <circle cx="8" cy="8" r="4.5" strokeDasharray="2 2" />,
  stop: <rect x="4" y="4" width="8" height="8" rx="1" fill="currentColor" />,
  play: <path d="M5 3.5v9l7.5-4.5z" fill="currentColor" />,
  download: <path d="M8 2.5v8M4.5 7L8 10.5 11.5 7M3 13.5h10" />,
  refresh: <path d="M13 8a5 5 0 1 1-1.5-3.6M13 2.5v3h-3" />,
  sidebar: (
    <>
      <rect x="2" y="3" width="12" height="10" rx="1.5" />
      <path d="M6 3v10" />
    </>
  ),
  panel: (
    <>
      <rect x="2" y="3" width="12" height="10" rx="1.5" />
      <path d="M10 3v10" />
    </>
  ),
  tool: <path d="M10.5 2.5a3 3 0 0 0-2.9 3.8L2.5 11.4 4.6 13.5l5.1-5.1a3 3 0 0 0 3.8-2.9l-1.8 1.8-1.9-.3-.3-1.9z" />,
  shield: <path d="M8 1.8l5 2v4c0 3-2.2 5.3-5 6.4-2.8-1.1-5-3.4-5-6.4v-4z" />,
  grid: (
    <>
      <rect x="2.5" y="2.5" width="11" height="11" rx="1" />
      <path d="M2.5 6.2h11M2.5 9.8h11M6.2 2.5v11M9.8 2.5v11" />
    </>
  ),
  sortUp: <path d="M4.5 10L8 6l3.5 4z" fill="currentColor" />,
  sortDown: <path d="M4.5 6L8 10l3.5-4z" fill="currentColor" />,
} satisfies Record<string, ReactNode>;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 16, className }: { name: IconName; size?: number; className?: string }) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {PATHS[name]}
    </svg>
  );
}
