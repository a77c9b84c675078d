import { css } from 'lit';

/** The toolbar: search, sort and the status chips. */
export const toolbarStyles = css`
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
  [part=sort-select] {
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
`;

/** The line of what is owed, under the toolbar. */
export const owedStyles = css`
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
`;
