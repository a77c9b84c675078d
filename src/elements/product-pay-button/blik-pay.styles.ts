import { css } from 'lit';

/** BLIK's own rules, adopted with the dialog's: the code field, the time left, the text only screen readers hear. */
export const blikStyles = css`
  .blik {
    display: flex;
    flex-wrap: wrap;
    align-items: end;
    gap: 0 0.5rem;
    margin: 0.8rem 0;
    padding: 0;
    border: 0;
  }
  .blik label {
    flex: 1 1 8em;
    margin: 0;
  }
  .blik input {
    letter-spacing: 0.2em;
  }
  .time {
    font-size: 2em;
    font-variant-numeric: tabular-nums;
    margin: 0.5rem 0;
  }
  /* The heading takes the focus only so that it is read; it is no control to point at. */
  #blik-title {
    outline: none;
  }
  .sr {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
  }
`;
