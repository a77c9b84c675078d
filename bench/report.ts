import { writeFile } from 'node:fs/promises';

/**
 * One figure of the benchmark. `ratio` is `value / baseline`; `target` says which way it must go
 * (`>= 0.10`, `<= 20`) and against what (the ratio, or the value itself).
 */
export interface Entry {
  name: string;
  value: number | null;
  unit: string;
  baseline: number | null;
  baselineName?: string;
  ratio: number | null;
  target?: { on: 'ratio' | 'value'; op: '>=' | '<='; limit: number };
  met?: boolean | null;
  note?: string;
}

export function entry(fields: Omit<Entry, 'ratio' | 'met'> & { ratio?: number | null }): Entry {
  const ratio = fields.ratio !== undefined ? fields.ratio : fields.value != null && fields.baseline ? fields.value / fields.baseline : null;
  const result: Entry = { ...fields, ratio };
  if (fields.target) {
    const measured = fields.target.on === 'ratio' ? ratio : fields.value;
    result.met = measured == null ? null : fields.target.op === '>=' ? measured >= fields.target.limit : measured <= fields.target.limit;
  }
  return result;
}

export function unavailable(name: string, unit: string, note: string, target?: Entry['target']): Entry {
  return { name, value: null, unit, baseline: null, ratio: null, ...(target ? { target, met: null } : {}), note };
}

const number = (value: number | null, unit: string) => {
  if (value == null) return 'not available';
  // A layout shift of 0.014 is not one of 0.01: Lighthouse's CLS is read to three places.
  const digits = unit === 'req/s' || unit === 'B' || unit === 'points' ? 0 : unit === 'CLS' ? 3 : value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })} ${unit}`;
};

export function table(entries: Entry[]): string {
  const rows = entries.map((e) => {
    const baseline = e.baseline == null ? '–' : `${number(e.baseline, e.unit === 'KB' ? 'KB' : e.unit)}${e.baselineName ? ` (${e.baselineName})` : ''}`;
    const ratio = e.ratio == null ? '–' : e.ratio.toFixed(e.ratio < 0.1 ? 3 : 2);
    const target = e.target ? `${e.target.on === 'ratio' ? 'ratio' : 'value'} ${e.target.op} ${e.target.limit}` : '';
    const met = e.met == null ? (e.target ? 'n/a' : '') : e.met ? 'met' : '**missed**';
    return `| ${e.name} | ${number(e.value, e.unit)} | ${baseline} | ${ratio} | ${target} | ${met} | ${e.note ?? ''} |`;
  });
  return ['| figure | value | baseline | ratio | target | | note |', '|---|---|---|---|---|---|---|', ...rows].join('\n');
}

export async function writeResults(path: string, entries: Entry[], meta: Record<string, unknown>): Promise<void> {
  await writeFile(path, `${JSON.stringify({ ...meta, entries }, null, 2)}\n`);
}
