import { css } from 'lit';

export const styles = css`
  .visually-hidden {
    position: absolute !important;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
  /* As wide as its container gives it, also as a flex or grid item (size containment would shrink it). */
  :host {
    display: block;
    inline-size: 100%;
    box-sizing: border-box;
    container: invoice-list / inline-size;
    --_row-height: var(--invoice-list-row-height, 4.5rem);
  }
  .frame {
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: var(--_shadow);
    overflow: hidden;
  }
  svg {
    width: 1.15em;
    height: 1.15em;
    flex: none;
    fill: none;
    stroke: currentColor;
    stroke-width: 1.7;
    stroke-linecap: round;
    stroke-linejoin: round;
  }
  p {
    margin: 0;
  }
  button,
  input,
  select,
  .action {
    font: inherit;
    color: var(--_text);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius-small);
    min-width: 0;
  }
  /* Every button and action link shares one shape; the sort headers undo it below. */
  button,
  .action {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.3rem;
    height: 2rem;
    padding: 0 0.75rem;
    font-weight: 500;
    text-decoration: none;
    vertical-align: middle;
  }
  button,
  select,
  .chip input {
    cursor: pointer;
  }
  :where(button, .action):not([disabled]):hover,
  .chip:hover span {
    background: var(--_hover);
  }
  [disabled] {
    opacity: 0.5;
    cursor: default;
  }

  .toolbar {
    display: grid;
    gap: 0.75rem;
    padding: 1rem 1.25rem;
    border-bottom: 1px solid var(--_border);
  }
  .toolbar-row,
  .statuses {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    min-width: 0;
  }
  .search {
    flex: 1 1 14rem;
    position: relative;
    display: flex;
    align-items: center;
    color: var(--_text-muted);
  }
  .search svg {
    position: absolute;
    left: 0.7rem;
  }
  input,
  select {
    height: 2.375rem;
  }
  input {
    width: 100%;
    padding: 0 0.75rem 0 2.3rem;
  }
  input::placeholder {
    color: var(--_text-muted);
  }
  .select {
    display: flex;
    min-width: 0;
  }
  select {
    padding: 0 0.75rem;
  }
  [part='sort-select'] {
    display: none;
  }
  .statuses {
    gap: 0.375rem;
    margin: 0;
    padding: 0;
    border: 0;
  }
  .chip {
    position: relative;
    display: flex;
  }
  .chip input {
    position: absolute;
    inset: 0;
    height: auto;
    margin: 0;
    opacity: 0;
  }
  .chip span {
    padding: 0.3rem 0.75rem;
    border-radius: 2rem;
    border: 1px solid var(--_border);
    color: var(--_text-muted);
    font-weight: 500;
    font-size: 0.8125rem;
    white-space: nowrap;
  }
  .chip :checked + span {
    background: var(--_text);
    border-color: var(--_text);
    color: var(--_surface);
  }
  .chip :focus-visible + span {
    box-shadow: var(--_focus);
  }

  .owed {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 0.25rem 1rem;
    padding: 0.75rem 1.25rem;
    border-bottom: 1px solid var(--_border);
    background: var(--_surface-sunken);
    color: var(--_text-muted);
  }
  .owed strong {
    color: var(--_text);
    font-size: 1.0625rem;
  }

  .scrolling {
    position: relative;
    max-height: var(--invoice-list-max-height, 36rem);
    overflow-y: auto;
    overscroll-behavior: contain;
    /* The window keeps the position itself: its rows are reused in place as it moves, and the browser's
       scroll anchoring would follow a reused row and jump the list ahead by the window's step. */
    overflow-anchor: none;
    contain: content;
  }
  /* The row height comes from CSS, read once through this probe: rows never change height as they load. */
  .probe {
    position: absolute;
    width: 1px;
    height: var(--_row-height);
    visibility: hidden;
    pointer-events: none;
  }
  /* Fixed columns and rows while scrolling: rows coming into view never resize them or relayout the table. */
  .scrolling table {
    table-layout: fixed;
  }
  .scrolling :is(.row, .skeleton) {
    height: var(--_row-height);
    box-sizing: border-box;
  }
  .scrolling :is(.row, .skeleton) > * {
    padding-block: 0;
    overflow: hidden;
    text-overflow: ellipsis;
  }
  .scrolling .status > *,
  .scrolling .hint {
    white-space: nowrap;
    overflow: hidden;
    text-overflow: ellipsis;
  }
  .scrolling th.actions {
    width: 15rem;
  }
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
    position: sticky;
    top: 0;
    z-index: 1;
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
    margin: -0.25rem -0.375rem;
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
  .ksef {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 0 0.5rem;
    margin-top: 0.125rem;
    font-size: 0.75rem;
    font-weight: 400;
    color: var(--_text-muted);
  }
  .ksef-state::before {
    content: '';
    display: inline-block;
    width: 0.375rem;
    height: 0.375rem;
    margin-right: 0.3rem;
    border-radius: 50%;
    vertical-align: middle;
    background: var(--invoice-list-ksef-color, var(--_info));
  }
  .ksef.sent .ksef-state::before {
    background: var(--invoice-list-ksef-sent-color, var(--_success));
  }
  .ksef.error {
    color: var(--_danger);
  }
  .ksef.error .ksef-state::before {
    background: currentColor;
  }
  .ksef-number {
    font-variant-numeric: tabular-nums;
    word-break: break-all;
  }
  .ksef-toggle {
    margin-top: 0.125rem;
    padding: 0;
    border: 0;
    background: none;
    font: inherit;
    font-size: 0.75rem;
    font-weight: 400;
    color: var(--_accent);
    text-decoration: underline;
    cursor: pointer;
  }
  .ksef-toggle::after {
    content: ' ▸';
  }
  .ksef-toggle[aria-expanded='true']::after {
    content: ' ▾';
  }
  .ksef-detail {
    max-width: 24rem;
    margin-top: 0.375rem;
    padding: 0.5rem 0.625rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius-small, 0.25rem);
    background: var(--_surface);
    font-size: 0.75rem;
    font-weight: 400;
    text-align: start;
    white-space: normal;
    cursor: auto;
  }
  .ksef-detail[hidden] {
    display: none;
  }
  .ksef-detail dl {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: 0.125rem 0.75rem;
    margin: 0;
  }
  .ksef-detail dt {
    color: var(--_text-muted);
  }
  .ksef-detail dd {
    margin: 0;
  }
  .ksef-note {
    margin: 0.375rem 0 0;
  }
  .ksef-detail a {
    display: inline-block;
    margin-top: 0.375rem;
    color: var(--_accent);
  }
  /* Rows keep their height while scrolling: the detail opens over the rows below. */
  .scrolling th[part~='number'] {
    position: relative;
  }
  .scrolling .ksef-detail {
    position: absolute;
    z-index: 2;
    inset-inline-start: 0.5rem;
    top: 100%;
    box-shadow: var(--_shadow);
  }
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
    .loading {
      animation: pulse 1.4s ease-in-out infinite;
    }
  }
  @keyframes pulse {
    50% {
      opacity: 0.45;
    }
  }
  .spacer td {
    padding: 0;
    border: 0;
  }

  .pagination {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 0.75rem;
    padding: 0.75rem 1.25rem;
    border-top: 1px solid var(--_border);
    color: var(--_text-muted);
  }
  .pager {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    white-space: nowrap;
  }

  .state {
    display: grid;
    justify-items: center;
    gap: 0.375rem;
    padding: 3rem 1.5rem;
    text-align: center;
    color: var(--_text-muted);
  }
  .state svg {
    width: 1.5rem;
    height: 1.5rem;
    box-sizing: content-box;
    padding: 0.8rem;
    margin-bottom: 0.5rem;
    border-radius: 50%;
    color: var(--_accent);
    background: color-mix(in srgb, currentColor 10%, transparent);
  }
  .error svg {
    color: var(--_danger);
  }
  .state p {
    max-width: 32rem;
  }
  .title {
    font-size: 1rem;
    font-weight: 600;
    color: var(--_text);
  }
  .state button {
    margin-top: 0.75rem;
  }
  .pay-outcome {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 0.75rem;
    margin-bottom: 0.75rem;
    padding: 0.75rem 1rem;
    border-radius: var(--_radius-small);
    border-inline-start: 4px solid var(--_danger);
    background: color-mix(in srgb, var(--_danger) 8%, transparent);
    color: var(--_text);
  }
  .pay-outcome.paid {
    border-color: var(--_success);
    background: color-mix(in srgb, var(--_success) 8%, transparent);
  }
  .pay-outcome.pending {
    border-color: var(--_accent);
    background: color-mix(in srgb, var(--_accent) 8%, transparent);
  }
  .pay-outcome p {
    flex: 1 1 16rem;
    margin: 0;
  }

  /* Mid widths: icon-only View and PDF, whose names stay for assistive technology. */
  @container invoice-list (44rem < width <= 60rem) {
    .action:not(.pay) .label {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
    }
    .scrolling th.actions {
      width: 10rem;
    }
  }
  /* Then no issue date column, and sorting from a dropdown (cards have no headers at all). */
  @container invoice-list (44rem < width <= 50rem) {
    .issue {
      display: none;
    }
  }
  @container invoice-list (width <= 50rem) {
    [part='sort-select'] {
      display: flex;
    }
  }

  /* Narrow: every row becomes a card. */
  @container invoice-list (width <= 44rem) {
    .scrolling {
      --_row-height: var(--invoice-list-row-height, 12rem);
    }
    .toolbar {
      padding: 0.875rem 1rem;
    }
    .search {
      flex-basis: 100%;
    }
    .select {
      flex: 1 1 0;
    }
    select {
      width: 100%;
    }
    table,
    tbody,
    .spacer,
    .spacer td {
      display: block;
    }
    thead {
      display: none;
    }
    .row {
      display: grid;
      grid-template: 'number total' 'issue due' 'status status' 'actions actions' / minmax(0, 1fr) minmax(0, 1fr);
      gap: 0.625rem 1rem;
      padding: 1rem;
      border-bottom: 1px solid var(--_border);
    }
    .row > * {
      padding: 0;
      border: 0;
    }
    [data-label]::before {
      content: attr(data-label);
      display: block;
      font-size: 0.6875rem;
      font-weight: 500;
      color: var(--_text-muted);
    }
    .row th {
      grid-area: number;
      align-self: center;
      font-size: 0.9375rem;
      white-space: normal;
      overflow-wrap: anywhere;
    }
    .status {
      grid-area: status;
    }
    .status::before {
      display: none;
    }
    .issue {
      grid-area: issue;
    }
    .due {
      grid-area: due;
    }
    .total {
      grid-area: total;
      text-align: right;
    }
    .actions {
      grid-area: actions;
      display: flex;
      gap: 0.5rem;
    }
    .action {
      flex: 1;
      margin: 0;
      height: 2.25rem;
    }
    .skeleton td:nth-child(n + 4) {
      display: none;
    }
    .pagination {
      padding-inline: 1rem;
    }
    .pager {
      width: 100%;
      justify-content: space-between;
    }
  }
`;
