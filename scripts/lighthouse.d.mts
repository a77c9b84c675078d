/** The figures of one Lighthouse run of one page: scores from 0 to 1, CLS unitless, LCP and TBT in milliseconds. */
export interface LighthouseFigures {
  performance: number;
  accessibility: number;
  'best-practices': number;
  seo: number;
  cls: number;
  lcp: number;
  tbt: number;
  failing: Partial<Record<'accessibility' | 'best-practices' | 'seo', string[]>>;
  runtimeError?: string;
  shifted: string[];
}

export interface PageResult {
  page: string;
  /** The run with the best performance. */
  best: LighthouseFigures;
  runs: LighthouseFigures[];
  /** What fell short on any run, performance aside. */
  shortfalls: string[];
}

export const LIGHTHOUSE_VERSION: string;
export const DEMO_PAGES: string[];
export const TARGETS: { performance: number; accessibility: number; 'best-practices': number; seo: number; cls: number };
export function startDemo(): Promise<{ url: string; stop(): Promise<void> }>;
export function measurePages(baseUrl: string, options?: { pages?: string[]; runs?: number; log?: (text: string) => void }): Promise<PageResult[]>;
export function shortfalls(result: LighthouseFigures): string[];
export function failures(results: PageResult[]): string[];
export function formatTable(results: PageResult[]): string;
