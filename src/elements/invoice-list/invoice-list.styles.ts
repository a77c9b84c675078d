import { css } from 'lit';

export const styles = css`
  :host {
    display: block;
    container: invoice-list / inline-size;
    min-width: 0;
  }
  .frame {
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: var(--_shadow);
    overflow: hidden;
  }
  .icon {
    width: 1.15em;
    height: 1.15em;
    flex: none;
  }
  :is(a, button, input, select):focus-visible {
    outline: none;
    box-shadow: var(--_focus);
  }

  /* Toolbar */
  .toolbar {
    display: grid;
    gap: 0.75rem;
    padding: 1rem 1.25rem;
    border-bottom: 1px solid var(--_border);
  }
  .toolbar-row {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
  .search {
    flex: 1 1 14rem;
    position: relative;
    display: flex;
    align-items: center;
    min-width: 0;
    color: var(--_text-muted);
  }
  .search .icon {
    position: absolute;
    left: 0.7rem;
    pointer-events: none;
  }
  input[type='search'],
  select {
    font: inherit;
    color: var(--_text);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius-small);
    height: 2.375rem;
    min-width: 0;
    transition: border-color 0.15s, box-shadow 0.15s;
  }
  input[type='search'] {
    width: 100%;
    padding: 0 0.75rem 0 2.3rem;
  }
  input::placeholder {
    color: var(--_text-muted);
    opacity: 1;
  }
  :is(input[type='search'], select):hover {
    border-color: color-mix(in srgb, var(--_text-muted) 45%, var(--_border));
  }
  .select {
    flex: 0 1 auto;
    display: flex;
    min-width: 0;
  }
  select {
    max-width: 100%;
    padding: 0 2rem 0 0.75rem;
    appearance: none;
    background-image: linear-gradient(45deg, transparent 50%, currentColor 50%), linear-gradient(135deg, currentColor 50%, transparent 50%);
    background-position: calc(100% - 1rem) 52%, calc(100% - 0.7rem) 52%;
    background-size: 0.3rem 0.3rem;
    background-repeat: no-repeat;
    cursor: pointer;
  }
  .sort-select {
    display: none;
  }
  .statuses {
    display: flex;
    flex-wrap: wrap;
    gap: 0.375rem;
    margin: 0;
    padding: 0;
    border: 0;
    min-width: 0;
  }
  .chip {
    position: relative;
    display: inline-flex;
  }
  .chip input {
    position: absolute;
    inset: 0;
    margin: 0;
    opacity: 0;
    cursor: pointer;
  }
  .chip span {
    display: inline-flex;
    align-items: center;
    height: 1.875rem;
    padding: 0 0.75rem;
    border-radius: 999px;
    border: 1px solid var(--_border);
    color: var(--_text-muted);
    font-weight: 500;
    font-size: 0.8125rem;
    white-space: nowrap;
    transition: background 0.15s, color 0.15s, border-color 0.15s;
  }
  .chip:hover span {
    color: var(--_text);
    background: var(--_hover);
  }
  .chip input:checked + span {
    background: var(--_text);
    border-color: var(--_text);
    color: var(--_surface);
  }
  .chip input:focus-visible + span {
    box-shadow: var(--_focus);
  }

  /* Table */
  .scroller.scrolling {
    max-height: var(--invoice-list-max-height, 36rem);
    overflow-y: auto;
    overscroll-behavior: contain;
  }
  table {
    width: 100%;
    border-collapse: collapse;
    font-variant-numeric: tabular-nums;
    transition: opacity 0.2s;
  }
  table.stale tbody {
    opacity: 0.55;
  }
  th,
  td {
    padding: 0.875rem 1.25rem;
    text-align: left;
    vertical-align: middle;
    border-bottom: 1px solid var(--_border);
  }
  tbody tr:last-child > * {
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
    letter-spacing: 0.02em;
    white-space: nowrap;
  }
  .num {
    text-align: right;
  }
  th.num .sort {
    flex-direction: row-reverse;
  }
  .sort {
    display: inline-flex;
    align-items: center;
    gap: 0.25rem;
    margin: -0.25rem -0.375rem;
    padding: 0.25rem 0.375rem;
    font: inherit;
    color: inherit;
    background: none;
    border: 0;
    border-radius: 0.375rem;
    cursor: pointer;
  }
  .sort .icon {
    opacity: 0.45;
  }
  .sort:hover,
  .sort.active {
    color: var(--_text);
  }
  .sort.active .icon {
    opacity: 1;
  }
  tbody tr.row {
    transition: background 0.12s;
  }
  tbody tr.row:not(.skeleton):hover {
    background: var(--invoice-list-row-hover, var(--_hover));
  }
  tbody th {
    font-weight: 600;
  }
  .number {
    color: var(--_text);
    text-decoration: none;
    border-radius: 0.25rem;
    word-break: break-word;
  }
  .number:hover {
    color: var(--_accent);
    text-decoration: underline;
    text-underline-offset: 0.2em;
  }
  td.issue,
  td.due {
    white-space: nowrap;
  }
  .due,
  .balance {
    line-height: 1.3;
  }
  .due > span,
  .balance > span {
    display: block;
  }
  .hint {
    font-size: 0.75rem;
    color: var(--_text-muted);
  }
  .hint.late {
    color: var(--_danger);
    font-weight: 500;
  }
  .total {
    font-weight: 500;
    white-space: nowrap;
  }
  .owing {
    font-weight: 600;
    white-space: nowrap;
  }
  .settled {
    color: var(--_text-muted);
    white-space: nowrap;
  }
  .badge {
    display: inline-flex;
    align-items: center;
    gap: 0.375rem;
    padding: 0.125rem 0.625rem 0.125rem 0.5rem;
    border-radius: 999px;
    font-size: 0.75rem;
    font-weight: 600;
    white-space: nowrap;
    color: var(--_badge);
    background: var(--_badge-soft);
  }
  .badge::before {
    content: '';
    width: 0.375rem;
    height: 0.375rem;
    border-radius: 50%;
    background: currentColor;
  }
  .badge.paid {
    --_badge: var(--_success);
    --_badge-soft: var(--_success-soft);
  }
  .badge.partial {
    --_badge: var(--_info);
    --_badge-soft: var(--_info-soft);
  }
  .badge.unpaid {
    --_badge: var(--_warning);
    --_badge-soft: var(--_warning-soft);
  }
  .badge.overdue {
    --_badge: var(--_danger);
    --_badge-soft: var(--_danger-soft);
  }
  td.actions {
    text-align: right;
    white-space: nowrap;
    padding-block: 0.5rem;
  }
  .actions {
    display: table-cell;
  }
  .action {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.3rem;
    height: 2rem;
    padding: 0 0.625rem;
    margin-left: 0.25rem;
    font: inherit;
    font-size: 0.8125rem;
    font-weight: 500;
    color: var(--_text);
    text-decoration: none;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius-small);
    cursor: pointer;
    transition: background 0.15s, border-color 0.15s, color 0.15s;
    vertical-align: middle;
  }
  .action:hover {
    background: var(--_hover);
    border-color: color-mix(in srgb, var(--_text-muted) 40%, var(--_border));
  }
  .action[disabled] {
    cursor: progress;
    opacity: 0.6;
  }
  .action.pay {
    min-width: 4rem;
    color: var(--_accent-text);
    background: var(--_accent);
    border-color: var(--_accent);
    font-weight: 600;
  }
  .action.pay:hover {
    background: color-mix(in srgb, var(--_accent) 88%, black);
  }
  .skeleton td {
    padding-block: 1.125rem;
  }
  .bar {
    display: block;
    max-width: 100%;
    height: 0.7rem;
    border-radius: 999px;
    background: linear-gradient(90deg, var(--_skeleton) 0%, color-mix(in srgb, var(--_skeleton) 55%, var(--_surface)) 50%, var(--_skeleton) 100%);
    background-size: 200% 100%;
    animation: shimmer 1.4s ease-in-out infinite;
  }
  @keyframes shimmer {
    from { background-position: 100% 0; }
    to { background-position: -100% 0; }
  }
  tr.spacer td {
    padding: 0;
    border: 0;
  }

  /* Footer */
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
  .range {
    margin: 0;
    font-variant-numeric: tabular-nums;
  }
  .pager {
    display: flex;
    align-items: center;
    gap: 0.5rem;
  }
  .page-of {
    font-variant-numeric: tabular-nums;
    white-space: nowrap;
  }
  .page-button,
  .button {
    display: inline-flex;
    align-items: center;
    gap: 0.25rem;
    height: 2rem;
    padding: 0 0.75rem;
    font: inherit;
    font-weight: 500;
    color: var(--_text);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius-small);
    cursor: pointer;
  }
  .page-button:hover:not([disabled]),
  .button:hover {
    background: var(--_hover);
  }
  .page-button[disabled] {
    opacity: 0.45;
    cursor: default;
  }

  /* Empty and error states */
  .state {
    display: grid;
    justify-items: center;
    gap: 0.375rem;
    padding: 3rem 1.5rem;
    text-align: center;
  }
  .state-icon {
    display: grid;
    place-items: center;
    width: 3rem;
    height: 3rem;
    margin-bottom: 0.5rem;
    border-radius: 50%;
    color: var(--_accent);
    background: var(--_accent-soft);
    font-size: 1.25rem;
  }
  .error .state-icon {
    color: var(--_danger);
    background: var(--_danger-soft);
  }
  .state-title {
    margin: 0;
    font-size: 1rem;
    font-weight: 600;
  }
  .state-text {
    margin: 0 0 0.75rem;
    max-width: 32rem;
    color: var(--_text-muted);
  }

  /* Medium widths: drop the least important column before switching to cards. */
  @container invoice-list (max-width: 56rem) {
    th,
    td {
      padding-inline: 0.75rem;
    }
    .action span:not(.visually-hidden) {
      display: none;
    }
    .action.pay span:not(.visually-hidden) {
      display: inline;
    }
  }

  /* Narrow: every row becomes a card. */
  @container invoice-list (max-width: 40rem) {
    .toolbar {
      padding: 0.875rem 1rem;
    }
    .search {
      flex-basis: 100%;
    }
    .select {
      flex: 1 1 0;
    }
    .select select {
      width: 100%;
    }
    .sort-select {
      display: flex;
    }
    table,
    tbody {
      display: block;
    }
    thead {
      display: none;
    }
    tbody tr.row {
      display: grid;
      grid-template-columns: minmax(0, 1fr) auto;
      grid-template-areas: 'number status' 'issue total' 'due balance' 'actions actions';
      gap: 0.625rem 1rem;
      padding: 1rem;
      border-bottom: 1px solid var(--_border);
    }
    tbody tr.row > * {
      padding: 0;
      border: 0;
      min-width: 0;
    }
    tbody tr.row > [data-label]::before {
      content: attr(data-label);
      display: block;
      font-size: 0.6875rem;
      font-weight: 500;
      letter-spacing: 0.02em;
      color: var(--_text-muted);
      margin-bottom: 0.125rem;
    }
    tbody tr.row > .number-cell::before,
    tbody tr.row > .status::before {
      display: none;
    }
    .number-cell {
      grid-area: number;
      align-self: center;
      font-size: 0.9375rem;
    }
    td.status {
      grid-area: status;
      text-align: right;
    }
    td.issue {
      grid-area: issue;
    }
    td.due {
      grid-area: due;
    }
    td.total {
      grid-area: total;
      font-size: 0.9375rem;
    }
    td.balance {
      grid-area: balance;
    }
    .due > span,
    .balance > span {
      display: inline;
    }
    .due .hint,
    .balance .hint {
      display: block;
    }
    td.actions {
      grid-area: actions;
      display: flex;
      gap: 0.5rem;
      text-align: left;
    }
    .action {
      flex: 1 1 0;
      margin: 0;
      height: 2.25rem;
    }
    .action span:not(.visually-hidden) {
      display: inline;
    }
    .skeleton td:nth-child(n + 5) {
      display: none;
    }
    tr.spacer {
      display: block;
    }
    tr.spacer td {
      display: block;
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
