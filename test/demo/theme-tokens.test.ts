import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

/**
 * The themes define every token (issue 45): the elements' own defaults are light-dark() pairs, one
 * value per scheme, and a page theme that sets some `--ik-color-*` tokens sets them all. A token left
 * out falls back to the light default: the demo's dark section once showed the buy dialog's price
 * summary as pale text on a near-white box (1.1:1). And the pairs that carry text reach WCAG AA.
 */
const themeSource = await readFile(new URL('../../src/elements/shared/theme.ts', import.meta.url), 'utf8');
const demoCss = await readFile(new URL('../../demo/demo.css', import.meta.url), 'utf8');

/** The elements' defaults: each public color token with its light and dark value. */
const defaults = new Map(
  [...themeSource.matchAll(/var\((--ik-color-[a-z-]+), light-dark\((#[0-9a-f]{3,8}), (#[0-9a-f]{3,8})\)\)/g)].map(([, token, light, dark]) => [token!, { light: light!, dark: dark! }]),
);

/** Every rule of the demo's stylesheet that sets a color token: its selector and its tokens. */
const demoThemes = [...demoCss.matchAll(/([^{}]+)\{([^{}]*)\}/g)]
  .map(([, selector, body]) => ({ selector: selector!.trim(), tokens: new Map([...body!.matchAll(/(--ik-color-[a-z-]+):\s*(#[0-9a-f]{3,8})/g)].map(([, t, v]) => [t!, v!])) }))
  .filter((rule) => rule.tokens.size > 0);

/** WCAG 2 contrast of two opaque #rrggbb colors. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return Math.round(((light! + 0.05) / (dark! + 0.05)) * 100) / 100;
}

/** The pairs that carry text in the elements: text on its background. */
const TEXT_PAIRS = [
  ['text', 'surface'],
  ['text', 'surface-sunken'],
  ['text-muted', 'surface'],
  ['text-muted', 'surface-sunken'],
  ['accent-text', 'accent'],
  ['accent', 'surface'],
  ['success', 'surface'],
  ['warning', 'surface'],
  ['danger', 'surface'],
  ['info', 'surface'],
] as const;

describe('the themes', () => {
  it('the elements’ defaults give every color token a light and a dark value', () => {
    expect([...defaults.keys()].sort()).toEqual([
      '--ik-color-accent',
      '--ik-color-accent-text',
      '--ik-color-border',
      '--ik-color-danger',
      '--ik-color-info',
      '--ik-color-success',
      '--ik-color-surface',
      '--ik-color-surface-sunken',
      '--ik-color-text',
      '--ik-color-text-muted',
      '--ik-color-warning',
    ]);
  });

  it('the demo’s dark section sets every token the light theme sets, the sunken surface among them', () => {
    expect(demoThemes.map((theme) => theme.selector)).toEqual(['.dark-section']);
    for (const theme of demoThemes) expect([...theme.tokens.keys()].sort(), theme.selector).toEqual([...defaults.keys()].sort());
  });

  it('every text pair reaches 4.5:1 in the light and the dark defaults and in the demo’s dark section', () => {
    const schemes = {
      light: (token: string) => defaults.get(`--ik-color-${token}`)!.light,
      dark: (token: string) => defaults.get(`--ik-color-${token}`)!.dark,
      '.dark-section': (token: string) => demoThemes[0]!.tokens.get(`--ik-color-${token}`)!,
    };
    const short = Object.entries(schemes).flatMap(([scheme, color]) =>
      TEXT_PAIRS.map(([text, background]) => [scheme, text, background, contrast(color(text), color(background))] as const).filter(([, , , ratio]) => ratio < 4.5),
    );
    expect(short).toEqual([]);
  });
});
