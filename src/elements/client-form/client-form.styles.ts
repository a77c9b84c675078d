import { css, unsafeCSS } from 'lit';
import { themeStyles } from '../shared/theme.js';

/**
 * The form lives in the light DOM (so autofill and password managers see its inputs), so its styles
 * are one sheet adopted by the document or shadow root it sits in, every rule nested under
 * `client-form`. The shared theme's `:host` rules become the element's own.
 */
const theme = unsafeCSS(themeStyles.cssText.replace(/:host\(([^)]*)\)/g, '&$1').replace(/:host/g, '&'));

export const styles = css`
  client-form {
    ${theme}
    display: block;
    container-type: inline-size;
    .cf-frame {
      background: var(--client-form-background, var(--_surface));
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      box-shadow: var(--_shadow);
      padding: var(--client-form-padding, 1.25rem);
    }
    .cf-grid {
      display: grid;
      gap: var(--client-form-gap, 0.875rem 1rem);
      grid-template-columns: minmax(0, 1fr);
      margin: 1rem 0 0;
    }
    fieldset {
      border: 0;
      margin: 0;
      padding: 0;
      min-width: 0;
    }
    legend {
      padding: 0;
      margin-bottom: 0.375rem;
      font-weight: 600;
    }
    .cf-kind {
      display: flex;
      flex-wrap: wrap;
      gap: 0.5rem;
    }
    .cf-choice {
      display: inline-flex;
      align-items: center;
      gap: 0.5rem;
      padding: 0.5rem 0.875rem;
      border: 1px solid var(--_border);
      border-radius: var(--_radius-small);
      cursor: pointer;
    }
    .cf-choice:has(:checked) {
      border-color: var(--_accent);
      background: color-mix(in srgb, var(--_accent) 8%, transparent);
    }
    .cf-choice input {
      accent-color: var(--_accent);
      margin: 0;
    }
    .cf-field {
      display: flex;
      flex-direction: column;
      gap: 0.25rem;
      min-width: 0;
    }
    /* The form is in the page's light DOM: a page's label rules (a grid, say) must not break "(optional)" onto a line of its own. */
    .cf-field label {
      display: block;
      font-weight: 600;
    }
    .cf-note {
      font-weight: 400;
      color: var(--_text-muted);
    }
    .cf-input {
      font: inherit;
      color: inherit;
      background: var(--client-form-input-background, var(--_surface));
      border: 1px solid var(--client-form-input-border, color-mix(in srgb, var(--_text) 30%, var(--_surface)));
      border-radius: var(--_radius-small);
      padding: 0.5rem 0.625rem;
      min-height: 2.625rem;
      width: 100%;
      box-sizing: border-box;
      margin: 0;
    }
    .cf-input[aria-invalid='true'] {
      border-color: var(--_danger);
    }
    .cf-input:disabled {
      background: var(--_surface-sunken);
      cursor: not-allowed;
    }
    .cf-error {
      color: var(--_danger);
      margin: 0;
      font-size: 0.8125rem;
    }
    .cf-actions {
      display: flex;
      flex-wrap: wrap;
      gap: 0.5rem 0.75rem;
      align-items: center;
      margin-top: 1.25rem;
    }
    .cf-button {
      font: inherit;
      font-weight: 600;
      border-radius: var(--_radius-small);
      padding: 0.5rem 1rem;
      min-height: 2.625rem;
      cursor: pointer;
      border: 1px solid var(--_border);
      background: var(--_surface);
      color: var(--_text);
    }
    .cf-primary {
      background: var(--client-form-button-background, var(--_accent));
      color: var(--client-form-button-color, var(--_accent-text));
      border-color: transparent;
    }
    .cf-button[aria-disabled='true'],
    .cf-button:disabled {
      opacity: 0.6;
      cursor: default;
    }
    .cf-status {
      margin: 0;
      color: var(--_text-muted);
    }
    .cf-status[data-kind='error'] {
      color: var(--_danger);
    }
    .cf-status[data-kind='ok'] {
      color: var(--_success);
    }
    @container (min-width: 34rem) {
      .cf-grid {
        grid-template-columns: repeat(6, minmax(0, 1fr));
        > * {
          grid-column: span 6;
        }
        > .cf-half {
          grid-column: span 3;
        }
        > .cf-third {
          grid-column: span 2;
        }
        > .cf-wide {
          grid-column: span 4;
        }
      }
    }
    .cf-banner {
      margin: 0 0 1rem;
      padding: 0.75rem 1rem;
      border-radius: var(--_radius-small);
      background: color-mix(in srgb, var(--_danger) 10%, var(--_surface));
      color: var(--_text);
    }
    .cf-lookup {
      align-self: flex-start;
      margin-top: 0.25rem;
    }
    /* What the register lookup did, in the size of a field's error; it takes no room until it has something to say. */
    .cf-field > .cf-note {
      margin: 0;
      font-size: 0.8125rem;
    }
    .cf-field > .cf-note:empty {
      position: absolute;
    }
  }
`;
