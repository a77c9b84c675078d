import { css } from 'lit';

export const styles = css`
  :host {
    display: inline-block;
  }
  .base {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 0.75rem;
  }
  .name,
  h2 {
    font-weight: 600;
    font-size: 1em;
    margin: 0;
  }
  .badge {
    font-size: 0.7rem;
    font-weight: 700;
    text-transform: uppercase;
    padding: 0 0.4rem;
    border: 1px solid;
    border-radius: 1rem;
    color: var(--_warning);
  }
  button,
  input,
  select {
    font: inherit;
    color: inherit;
    min-height: 2.5rem;
    padding: 0 1rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius-small);
    background: none;
  }
  .buy {
    min-height: var(--product-pay-button-height, 2.75rem);
    padding: 0 var(--product-pay-button-padding, 1.25rem);
    font-size: var(--product-pay-button-font-size, 1em);
    font-weight: 600;
    border: 0;
    border-radius: var(--product-pay-button-radius, var(--_radius-small));
    background: var(--product-pay-button-background, var(--_accent));
    color: var(--product-pay-button-color, var(--_accent-text));
  }
  [disabled] {
    opacity: 0.6;
  }
  .ok {
    color: var(--_success);
  }
  .error,
  .field-error {
    color: var(--_danger);
  }
  .field-error,
  .note {
    font-size: 0.875em;
  }
  [aria-invalid='true'] {
    border-color: var(--_danger);
  }
  dialog {
    width: min(var(--product-pay-button-dialog-width, 26rem), 100vw - 2rem);
    box-sizing: border-box;
    color: inherit;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  label {
    display: grid;
    gap: 0.25rem;
    margin: 0.8rem 0;
  }
  .check {
    display: block;
  }
  .check input {
    min-height: 0;
  }
  .summary {
    padding: 0.5rem 1rem;
    border-radius: var(--_radius-small);
    background: var(--_surface-sunken);
  }
  dl div {
    display: flex;
    justify-content: space-between;
  }
  dd {
    margin: 0;
  }
  .total {
    font-weight: 700;
  }
  .summary.stale {
    opacity: 0.6;
  }
  .note ul {
    margin: 0.25rem 0;
    padding-inline-start: 1.25rem;
  }
  [part='lookup-button'] {
    justify-self: start;
  }
  .actions {
    display: flex;
    justify-content: end;
    gap: 0.5rem;
  }
`;
