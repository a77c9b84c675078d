import { css } from 'lit';

/** The pager under the table. */
export const paginationStyles = css`
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
`;

/** The empty and error states. */
export const stateStyles = css`
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
`;
