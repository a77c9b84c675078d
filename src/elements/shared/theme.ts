import { css, unsafeCSS } from 'lit';

/**
 * Design tokens. Pages theme every invoicekit element at once with the public `--ik-*` properties
 * (set them on any ancestor); the `theme` attribute picks the light or dark defaults behind them.
 * Elements read the private `--_*` names only.
 */
const dark = unsafeCSS(`
  --_surface: var(--ik-color-surface, #0f1523);
  --_surface-raised: var(--ik-color-surface-raised, #161d2e);
  --_surface-sunken: var(--ik-color-surface-sunken, #0b101b);
  --_text: var(--ik-color-text, #e6e9f2);
  --_text-muted: var(--ik-color-text-muted, #98a2b8);
  --_border: var(--ik-color-border, #263048);
  --_accent: var(--ik-color-accent, #8b93ff);
  --_accent-text: var(--ik-color-accent-text, #0b0f1a);
  --_accent-soft: var(--ik-color-accent-soft, rgb(139 147 255 / 0.16));
  --_hover: var(--ik-color-hover, rgb(255 255 255 / 0.04));
  --_success: var(--ik-color-success, #4ade80);
  --_success-soft: var(--ik-color-success-soft, rgb(74 222 128 / 0.12));
  --_warning: var(--ik-color-warning, #fbbf24);
  --_warning-soft: var(--ik-color-warning-soft, rgb(251 191 36 / 0.12));
  --_danger: var(--ik-color-danger, #f87171);
  --_danger-soft: var(--ik-color-danger-soft, rgb(248 113 113 / 0.13));
  --_info: var(--ik-color-info, #7dd3fc);
  --_info-soft: var(--ik-color-info-soft, rgb(125 211 252 / 0.12));
  --_skeleton: var(--ik-color-skeleton, #1f2738);
  --_shadow: var(--ik-shadow, 0 1px 2px rgb(0 0 0 / 0.4), 0 8px 24px -12px rgb(0 0 0 / 0.6));
  color-scheme: dark;
`);

export const themeStyles = css`
  :host {
    --_font: var(--ik-font-family, ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif);
    --_font-size: var(--ik-font-size, 0.875rem);
    --_radius: var(--ik-radius, 0.75rem);
    --_radius-small: var(--ik-radius-small, 0.5rem);
    --_focus: var(--ik-focus-ring, 0 0 0 2px var(--_surface), 0 0 0 4px var(--_accent));
    --_surface: var(--ik-color-surface, #ffffff);
    --_surface-raised: var(--ik-color-surface-raised, #ffffff);
    --_surface-sunken: var(--ik-color-surface-sunken, #f7f8fb);
    --_text: var(--ik-color-text, #101828);
    --_text-muted: var(--ik-color-text-muted, #5b6578);
    --_border: var(--ik-color-border, #e4e7ee);
    --_accent: var(--ik-color-accent, #4f46e5);
    --_accent-text: var(--ik-color-accent-text, #ffffff);
    --_accent-soft: var(--ik-color-accent-soft, rgb(79 70 229 / 0.08));
    --_hover: var(--ik-color-hover, rgb(16 24 40 / 0.025));
    --_success: var(--ik-color-success, #067647);
    --_success-soft: var(--ik-color-success-soft, #ecfdf3);
    --_warning: var(--ik-color-warning, #b54708);
    --_warning-soft: var(--ik-color-warning-soft, #fffaeb);
    --_danger: var(--ik-color-danger, #b42318);
    --_danger-soft: var(--ik-color-danger-soft, #fef3f2);
    --_info: var(--ik-color-info, #175cd3);
    --_info-soft: var(--ik-color-info-soft, #eff8ff);
    --_skeleton: var(--ik-color-skeleton, #eef0f4);
    --_shadow: var(--ik-shadow, 0 1px 2px rgb(16 24 40 / 0.05), 0 8px 24px -12px rgb(16 24 40 / 0.12));
    color-scheme: light;
    font-family: var(--_font);
    font-size: var(--_font-size);
    line-height: 1.45;
    color: var(--_text);
  }
  :host([theme='dark']) {
    ${dark}
  }
  @media (prefers-color-scheme: dark) {
    :host([theme='auto']) {
      ${dark}
    }
  }
  :host([hidden]) {
    display: none !important;
  }
  .visually-hidden {
    position: absolute !important;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
  @media (prefers-reduced-motion: reduce) {
    *, *::before, *::after {
      animation-duration: 0.01ms !important;
      transition-duration: 0.01ms !important;
    }
  }
`;
