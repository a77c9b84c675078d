import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

/**
 * The fonts invoices are drawn with, parsed once per process, with what makes that safe and fast:
 * glyphs that keep their characters, words shaped once, outlines decoded once.
 */

const require = createRequire(import.meta.url);
type ParsedFont = ReturnType<typeof fontkit.create>;
let fonts: { regular: ParsedFont; bold: ParsedFont } | undefined;

/**
 * DejaVu Sans covers Polish and every other Latin letter; it comes from its npm package. The fonts
 * are parsed once per process, not once per document (parsing was most of a first render); each
 * document still embeds only the subset of glyphs it uses.
 */
export function documentFonts(): { regular: ParsedFont; bold: ParsedFont } {
  fonts ??= {
    regular: withKeptLayouts(withCharacters(fontkit.create(readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'))))),
    bold: withKeptLayouts(withCharacters(fontkit.create(readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'))))),
  };
  return fonts;
}

interface CharacterGlyph {
  codePoints: number[];
}

/**
 * fontkit keeps one glyph object per glyph id, holding the characters of the first request for it,
 * and pdfkit maps each glyph of a document to the characters its object holds (the PDF's ToUnicode,
 * which copying, searching and screen readers use). A glyph first met as a component of another (the
 * "c" inside "ć", when an earlier document's subset was written) holds none, so every later document
 * of the process lost that letter from its text ("mocy" read "mo y"). A glyph asked for with its
 * characters now takes them when it holds none.
 */
function withCharacters(font: ParsedFont): ParsedFont {
  const target = font as unknown as { getGlyph(id: number, codePoints?: number[]): CharacterGlyph };
  const getGlyph = target.getGlyph.bind(font);
  target.getGlyph = (id, codePoints) => {
    const glyph = getGlyph(id, codePoints);
    if (codePoints?.length && glyph.codePoints.length === 0) glyph.codePoints = codePoints;
    return glyph;
  };
  return font;
}

/** Words shaped once per process and font; invoices repeat most of theirs (labels, units, amounts). */
const KEPT_LAYOUTS = 20_000;

interface Run {
  glyphs: unknown[];
  positions: Record<string, number>[];
}

/**
 * The font as pdfkit sees it, shaping each word and decoding each glyph once per process instead of
 * once per document.
 * pdfkit keeps shaped words only per document, and shaping (OpenType lookups in fontkit) was a fifth
 * of a render. pdfkit scales the positions it is given in place, so each call gets its own copies;
 * the glyphs are only read. Calls with explicit features are shaped afresh.
 */
function withKeptLayouts(font: ParsedFont): ParsedFont {
  const kept = new Map<string, Run>();
  const shaped = Object.create(font) as ParsedFont & { layout(text: string, features?: unknown): Run };
  const layout = (font as unknown as { layout(text: string, features?: unknown): Run }).layout.bind(font);
  shaped.layout = (text: string, features?: unknown) => {
    if (features !== undefined) return layout(text, features);
    let run = kept.get(text);
    if (!run) {
      run = layout(text);
      if (kept.size < KEPT_LAYOUTS) kept.set(text, run);
    }
    const positions = run.positions.map((position) => ({ ...position }));
    return {
      glyphs: run.glyphs,
      positions,
      get advanceWidth() {
        let width = 0;
        for (const position of positions) width += position.xAdvance!;
        return width;
      },
    };
  };
  // Each document's font subset decodes the outline of every glyph it holds, anew each time; a
  // glyph's outline never changes, so it is decoded once per process. fontkit keeps the glyph
  // objects themselves, and only reads what `_decode` answers.
  const getGlyph = (font as unknown as { getGlyph(id: number, codePoints?: number[]): DecodableGlyph }).getGlyph.bind(font);
  (shaped as unknown as { getGlyph: typeof getGlyph }).getGlyph = (id, codePoints) => {
    const glyph = getGlyph(id, codePoints);
    if (glyph && typeof glyph._decode === 'function' && !decodedOnce.has(glyph)) {
      const decode = glyph._decode.bind(glyph);
      let outline: { value: unknown } | undefined;
      glyph._decode = () => (outline ??= { value: decode() }).value;
      decodedOnce.add(glyph);
    }
    return glyph;
  };
  return shaped;
}

interface DecodableGlyph {
  _decode?: () => unknown;
}

const decodedOnce = new WeakSet<DecodableGlyph>();
