import { css } from 'lit';

/**
 * What every back-office view shares: type, forms, buttons, tables and messages. The colours pass
 * WCAG AA contrast; focus is always visible; nothing is wider than a 390 px phone.
 */
export const viewStyles = css`
  :host {
    display: block;
    color: var(--admin-text, #1b1f24);
    font: 1rem/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
  }
  h1 {
    font-size: 1.5rem;
    line-height: 1.25;
    margin: 0 0 1rem;
  }
  h1:focus {
    outline: none;
  }
  h1:focus-visible {
    outline: 2px solid var(--admin-focus, #0b57d0);
    outline-offset: 2px;
  }
  h2 {
    font-size: 1.15rem;
    margin: 1.5rem 0 0.5rem;
  }
  a {
    color: var(--admin-link, #0b57d0);
  }
  :is(a, button, input, select, textarea, summary):focus-visible {
    outline: 2px solid var(--admin-focus, #0b57d0);
    outline-offset: 2px;
  }
  button,
  .button {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    min-height: 2.5rem;
    padding: 0 1rem;
    border: 1px solid var(--admin-border-strong, #5f6b7a);
    border-radius: 0.375rem;
    background: var(--admin-surface, #fff);
    color: inherit;
    font: inherit;
    text-decoration: none;
    cursor: pointer;
  }
  button.primary,
  .button.primary {
    background: var(--admin-accent, #0b57d0);
    border-color: var(--admin-accent, #0b57d0);
    color: #fff;
  }
  button[disabled] {
    opacity: 0.6;
    cursor: default;
  }
  form,
  .fields {
    display: grid;
    gap: 0.75rem;
    max-width: 36rem;
  }
  label {
    display: grid;
    gap: 0.25rem;
    font-weight: 600;
  }
  label.check {
    display: flex;
    gap: 0.5rem;
    align-items: center;
    font-weight: normal;
  }
  input,
  select,
  textarea {
    box-sizing: border-box;
    width: 100%;
    min-height: 2.5rem;
    padding: 0.375rem 0.5rem;
    border: 1px solid var(--admin-border-strong, #5f6b7a);
    border-radius: 0.375rem;
    background: var(--admin-surface, #fff);
    color: inherit;
    font: inherit;
    font-weight: normal;
  }
  input[type='checkbox'] {
    width: auto;
    min-height: 0;
  }
  [aria-invalid='true'] {
    border-color: var(--admin-danger, #b3261e);
  }
  .field-error,
  .error {
    color: var(--admin-danger, #b3261e);
    font-weight: normal;
    margin: 0;
  }
  .hint,
  .muted {
    color: var(--admin-muted, #4d5766);
    font-weight: normal;
    margin: 0;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  .table-wrap {
    overflow-x: auto;
  }
  table {
    border-collapse: collapse;
    width: 100%;
  }
  th,
  td {
    text-align: start;
    padding: 0.5rem;
    border-bottom: 1px solid var(--admin-border, #d0d5dc);
    vertical-align: top;
  }
  td.number,
  th.number {
    text-align: end;
    white-space: nowrap;
  }
  .status {
    min-height: 1.5rem;
    margin: 0;
  }
  .badge {
    display: inline-block;
    padding: 0 0.5rem;
    border-radius: 1rem;
    background: var(--admin-badge, #e8eaed);
    font-size: 0.875rem;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;
