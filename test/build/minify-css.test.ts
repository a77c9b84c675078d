import { describe, expect, it } from 'vitest';
import { minifyCss } from '../../vite.config.js';

describe('the build’s minifier of Lit’s css templates', () => {
  it('takes out comments and the spaces around braces, semicolons, commas and combinators', () => {
    expect(minifyCss(`
      /* a comment */
      .a > .b + .c,
      .d {
        margin: 0 0.5rem;
        grid-template-columns: repeat(2, minmax(0, 1fr));
      }
    `)).toBe(' .a>.b+.c,.d{margin:0 .5rem;grid-template-columns:repeat(2,minmax(0,1fr))}');
  });

  it('keeps the spaces calc() needs around a plus and a minus, however deep the parentheses', () => {
    expect(minifyCss('.a { width: calc(200% + 1rem); height: calc(var(--x, 1px) - 2px); }')).toBe('.a{width:calc(200% + 1rem);height:calc(var(--x,1px) - 2px)}');
    expect(minifyCss('.a { width: min(100vw - 2rem, calc(50% + (1rem + 2px))); }')).toBe('.a{width:min(100vw - 2rem,calc(50% + (1rem + 2px)))}');
  });

  it('still joins a sibling combinator after a parenthesis closes', () => {
    expect(minifyCss(':is(a, b) + c { color: red; }')).toBe(':is(a,b)+c{color:red}');
  });
});
