import { css } from 'lit';

/**
 * Design tokens. Pages theme every invoicekit element at once with the public `--ik-*` properties
 * (set them on any ancestor); the `theme` attribute picks the light or dark defaults behind them.
 * Motion is opt-in per element, under `prefers-reduced-motion: no-preference`. Elements read the
 * private `--_*` names only; tints are mixed from the base colors, so a page that
 * changes one color gets a matching set.
 */
const dark = css`
  --_surface: var(--ik-color-surface, #0f1523);
  --_surface-sunken: var(--ik-color-surface-sunken, #0b101b);
  --_text: var(--ik-color-text, #e6e9f2);
  --_text-muted: var(--ik-color-text-muted, #98a2b8);
  --_border: var(--ik-color-border, #263048);
  --_accent: var(--ik-color-accent, #8b93ff);
  --_accent-text: var(--ik-color-accent-text, #0b0f1a);
  --_success: var(--ik-color-success, #4ade80);
  --_warning: var(--ik-color-warning, #fbbf24);
  --_danger: var(--ik-color-danger, #f87171);
  --_info: var(--ik-color-info, #7dd3fc);
  --_shadow: var(--ik-shadow, 0 8px 24px -12px #000);
  color-scheme: dark;
`;

export const themeStyles = css`
  :host {
    --_surface: var(--ik-color-surface, #fff);
    --_surface-sunken: var(--ik-color-surface-sunken, #f7f8fb);
    --_text: var(--ik-color-text, #101828);
    --_text-muted: var(--ik-color-text-muted, #5b6578);
    --_border: var(--ik-color-border, #e4e7ee);
    --_accent: var(--ik-color-accent, #4f46e5);
    --_accent-text: var(--ik-color-accent-text, #fff);
    --_success: var(--ik-color-success, #067647);
    --_warning: var(--ik-color-warning, #b54708);
    --_danger: var(--ik-color-danger, #c4320a);
    --_info: var(--ik-color-info, #175cd3);
    --_shadow: var(--ik-shadow, 0 1px 2px #1018280d, 0 8px 24px -12px #1018281f);
    --_radius: var(--ik-radius, 0.75rem);
    --_radius-small: var(--ik-radius-small, 0.5rem);
    --_focus: 0 0 0 2px var(--_surface), 0 0 0 4px var(--_accent);
    --_hover: color-mix(in srgb, var(--_text) 3%, transparent);
    --_skeleton: color-mix(in srgb, var(--_text) 7%, var(--_surface));
    color-scheme: light;
    font: var(--ik-font-size, 0.875rem) / 1.45 var(--ik-font-family, system-ui, sans-serif);
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
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
  :is(a, button, input, select):focus-visible {
    outline: none;
    box-shadow: var(--_focus);
  }
`;
