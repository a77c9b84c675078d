import { describe, expect, it } from 'vitest';
import type { TransformResult } from 'vite';
import { minifyCss, minifyLitTemplates } from '../../vite.config.js';

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

describe('the build’s rewrite of Lit’s css templates', () => {
  const transform = (code: string) => {
    const plugin = minifyLitTemplates();
    const hook = plugin.transform as (code: string, id: string) => TransformResult | null;
    return hook.call(plugin, code, '/repo/src/elements/x/x.styles.ts')?.code;
  };

  it('writes each css template as unsafeCSS() of the same text, minified, interpolations kept', () => {
    const code = "import { css } from 'lit';\nexport const a = css`\n  :host {\n    color: red;\n  }\n`;\nexport const b = css`x { ${a} width: calc(1px + 2px); }`;\n";
    expect(transform(code)).toBe(
      "import { unsafeCSS as __invoicekitUnsafeCSS } from 'lit';\n" +
        "import { css } from 'lit';\nexport const a = __invoicekitUnsafeCSS(` :host{color:red}`);\nexport const b = __invoicekitUnsafeCSS(`x{${a} width:calc(1px + 2px)}`);\n",
    );
  });

  it('leaves modules outside the elements and the back office alone', () => {
    const plugin = minifyLitTemplates();
    const hook = plugin.transform as (code: string, id: string) => TransformResult | null;
    expect(hook.call(plugin, 'const a = css`x { }`;', '/repo/src/service/x.ts')).toBeNull();
  });
});
