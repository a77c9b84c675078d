import { css } from 'lit';

/** The table: headers, sorting, rows, amounts and status badges. */
export const tableStyles = css`
  table {
    width: 100%;
    border-collapse: collapse;
    font-variant-numeric: tabular-nums;
  }
  .stale tbody {
    opacity: 0.55;
  }
  th,
  td {
    padding: 0.875rem 0.75rem;
    text-align: left;
    border-bottom: 1px solid var(--_border);
  }
  :is(th, td):first-child {
    padding-left: 1.25rem;
  }
  :is(th, td):last-child {
    padding-right: 1.25rem;
  }
  tr:last-child > * {
    border-bottom: 0;
  }
  thead th {
    padding-block: 0.625rem;
    background: var(--invoice-list-header-background, var(--_surface-sunken));
    color: var(--_text-muted);
    font-size: 0.75rem;
    font-weight: 600;
  }
  .num {
    text-align: right;
  }
  .sort {
    gap: 0.25rem;
    height: auto;
    margin: -.25rem -.375rem;
    padding: 0.25rem 0.375rem;
    color: inherit;
    background: none;
    border: 0;
    font-weight: inherit;
  }
  .num .sort {
    flex-direction: row-reverse;
  }
  .sort svg {
    opacity: 0;
    rotate: 90deg;
  }
  .sort:is(:hover, :focus-visible) svg {
    opacity: 0.5;
  }
  .sort:is(.asc, .desc) {
    color: var(--_text);
  }
  .sort:is(.asc, .desc) svg {
    opacity: 1;
  }
  .asc svg {
    rotate: -90deg;
  }
  .prev svg {
    rotate: 180deg;
  }
  .row {
    cursor: pointer;
  }
  .row:hover {
    background: var(--invoice-list-row-hover, var(--_hover));
  }
  tbody th {
    font-weight: 600;
  }
  tbody th,
  td:is(.issue, .due, .num) {
    white-space: nowrap;
  }
  .due span,
  .balance,
  .balance > * {
    display: block;
  }
  .balance {
    margin-top: 0.25rem;
  }
  .hint {
    font-size: 0.75rem;
    color: var(--_text-muted);
    white-space: normal;
  }
  .late {
    color: var(--_danger);
    font-weight: 500;
  }
  .total,
  .owing {
    font-weight: 600;
  }
  .owing {
    font-size: 0.8125rem;
  }
  .badge {
    display: inline-flex;
    align-items: center;
    gap: 0.375rem;
    padding: 0.125rem 0.625rem 0.125rem 0.5rem;
    border-radius: 2rem;
    font-size: 0.75rem;
    font-weight: 600;
    white-space: nowrap;
    color: var(--_badge);
    background: color-mix(in srgb, var(--_badge) 11%, transparent);
  }
  .badge::before {
    content: '';
    width: 0.375rem;
    height: 0.375rem;
    border-radius: 50%;
    background: currentColor;
  }
  .paid {
    --_badge: var(--_success);
  }
  .partial {
    --_badge: var(--_info);
  }
  .unpaid {
    --_badge: var(--_warning);
  }
  .overdue {
    --_badge: var(--_danger);
  }
`;

/** A row's actions and the loading placeholders. */
export const rowActionStyles = css`
  .actions {
    text-align: right;
    white-space: nowrap;
    padding-block: 0.5rem;
  }
  .action {
    padding: 0 0.625rem;
    margin-left: 0.25rem;
    font-size: 0.8125rem;
  }
  .pay {
    min-width: 4rem;
    color: var(--_accent-text);
    background: var(--_accent);
    border-color: var(--_accent);
    font-weight: 600;
  }
  .pay:hover {
    background: color-mix(in srgb, var(--_accent) 85%, #000);
  }
  .skeleton td {
    padding-block: 1.125rem;
  }
  .bar {
    display: block;
    height: 0.7rem;
    border-radius: 1rem;
    background: var(--_skeleton);
  }
  td:nth-child(odd) .bar {
    width: 60%;
  }
  /* One animation for all the first load's placeholders, not one per bar: every animated element
     costs a style recalculation in every frame. Placeholders met while scrolling stay still. */
  @media (prefers-reduced-motion: no-preference) {
    [data-state=loading] tbody {
      animation: pulse 1.4s ease-in-out infinite;
    }
  }
  @keyframes pulse {
    50% {
      opacity: 0.45;
    }
  }
`;
