import { css } from 'lit';

/**
 * Design tokens. Pages theme every invoicekit element at once with the public `--ik-*` properties
 * (set them on any ancestor); the `theme` attribute picks the light or dark defaults behind them.
 * Motion is opt-in per element, under `prefers-reduced-motion: no-preference`. Elements read the
 * private `--_*` names only; tints are mixed from the base colors, so a page that
 * changes one color gets a matching set. The defaults are `light-dark()` pairs (browsers from 2024
 * on), so dark mode costs no second copy of the tokens.
 */
export const themeStyles = css`
  :host {
    --_surface: var(--ik-color-surface, light-dark(#fff, #0f1523));
    --_surface-sunken: var(--ik-color-surface-sunken, light-dark(#f7f8fb, #0b101b));
    --_text: var(--ik-color-text, light-dark(#101828, #e6e9f2));
    --_text-muted: var(--ik-color-text-muted, light-dark(#5b6578, #98a2b8));
    --_border: var(--ik-color-border, light-dark(#e4e7ee, #263048));
    --_accent: var(--ik-color-accent, light-dark(#4f46e5, #8b93ff));
    --_accent-text: var(--ik-color-accent-text, light-dark(#fff, #0b0f1a));
    --_success: var(--ik-color-success, light-dark(#067647, #4ade80));
    --_warning: var(--ik-color-warning, light-dark(#b54708, #fbbf24));
    --_danger: var(--ik-color-danger, light-dark(#c4320a, #f87171));
    --_info: var(--ik-color-info, light-dark(#175cd3, #7dd3fc));
    --_shadow: var(--ik-shadow, 0 1px 2px light-dark(#1018280d, #0000), 0 8px 24px -12px light-dark(#1018281f, #000));
    --_radius: var(--ik-radius, 0.75rem);
    --_radius-small: var(--ik-radius-small, 0.5rem);
    --_focus: 0 0 0 2px var(--_surface), 0 0 0 4px var(--_accent);
    color-scheme: light;
    font: var(--ik-font-size, 0.875rem) / 1.45 var(--ik-font-family, system-ui, sans-serif);
    color: var(--_text);
  }
  /* Each default color is a light-dark() pair, picked by the element's color scheme. */
  :host([theme='dark']) {
    color-scheme: dark;
  }
  :host([theme='auto']) {
    color-scheme: light dark;
  }
  :host([hidden]) {
    display: none !important;
  }
  :is(a, button, input, select):focus-visible {
    outline: none;
    box-shadow: var(--_focus);
  }
`;
