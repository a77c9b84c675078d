import { css } from 'lit';

/** The list at its container's widths: icon-only actions, fewer columns, then cards. */
export const widthStyles = css`
  /* Mid widths: icon-only View and PDF, whose names stay for assistive technology. */
  @container invoice-list (44rem < width <= 60rem) {
    .action:not(.pay) .label {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
    }
  }
  /* Then no issue date column, and sorting from a dropdown (cards have no headers at all). */
  @container invoice-list (44rem < width <= 50rem) {
    .issue {
      display: none;
    }
  }
  @container invoice-list (width <= 50rem) {
    [part=sort-select] {
      display: flex;
    }
  }

  /* Narrow: every row becomes a card. */
  @container invoice-list (width <= 44rem) {
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
    tbody {
      display: block;
    }
    thead {
      display: none;
    }
    /* A placeholder is a card too, its six bars in the card's two columns. */
    :is(.row, .skeleton) {
      display: grid;
      grid-template: 'number total' 'issue due' 'status status' 'actions actions' / minmax(0, 1fr) minmax(0, 1fr);
      gap: 0.625rem 1rem;
      padding: 1rem;
      border-bottom: 1px solid var(--_border);
    }
    /* As specific as the table's first and last cell padding, which a card's cells must lose too. */
    :is(.row, .skeleton) > :is(th, td) {
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
    .pagination {
      padding-inline: 1rem;
    }
    .pager {
      width: 100%;
      justify-content: space-between;
    }
  }
`;
