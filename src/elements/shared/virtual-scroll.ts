import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** The timers the controller waits with; tests pass their own to move time by hand. */
export interface ScrollClock {
  now(): number;
  /** Calls `run` after `ms`; answers a function that cancels it. */
  after(ms: number, run: () => void): () => void;
}

const realClock: ScrollClock = { now: Date.now, after: (ms, run) => clearTimeout.bind(undefined, setTimeout(run, ms)) };

export interface VirtualScrollOptions<T> {
  /** Rows per fetched chunk. */
  chunk: number;
  /** Fetches the rows of chunk `index` (from 0). */
  fetchChunk(index: number, signal: AbortSignal): Promise<T[]>;
  /** A chunk could not be fetched; it is asked for again after a while, or when the window moves. */
  failed(): void;
  /** The scrolling element in the host's render root, and in it the hidden probe that CSS gives the row height. */
  scroller: string;
  probe: string;
  clock?: ScrollClock;
}

/** Rows rendered beyond each edge of the visible window. */
const OVERSCAN = 10;
/** The rendered window moves in steps of this many rows, so scrolling renders only when it must. */
const STEP = 10;
/** Missing rows are fetched once the window has rested this long (ms), or at the latest after `MAX_WAIT`. */
const QUIET = 150;
const MAX_WAIT = 600;
/** After a chunk failed, the window asks again this long (ms) later, doubling up to `RETRY_MAX` while it fails. */
const RETRY_FIRST = 1_000;
const RETRY_MAX = 16_000;

/**
 * Endless scrolling over a known number of rows: only the rows in view (plus a margin) are rendered,
 * between spacers of fixed row heights that keep the scrollbar true, and the rows the window lacks
 * are fetched a chunk at a time once scrolling rests, so a fast scroll across thousands of rows costs
 * a few requests, not one per chunk. Sizes are read without forcing a layout: a ResizeObserver
 * reports the scroller's height and the row height CSS sets on a hidden probe.
 */
export class VirtualScroll<T> implements ReactiveController {
  /** Every row by position; `undefined` until its chunk arrives. */
  rows: (T | undefined)[] = [];
  /** The first row of the window, a multiple of `STEP`. */
  start = 0;
  rowHeight = 72;
  visibleRows = 12;
  readonly #host: ReactiveControllerHost & { renderRoot: ParentNode };
  readonly #options: VirtualScrollOptions<T>;
  readonly #clock: ScrollClock;
  #chunks = new Set<number>();
  #loads = new AbortController();
  #cancelWait?: () => void;
  #waitSince = 0;
  #cancelRetry?: () => void;
  /** Chunk fetches failed in a row. */
  #failures = 0;
  #sizes?: ResizeObserver;
  #observed?: Element;
  /** The scroller's height. */
  #height = 792;

  constructor(host: ReactiveControllerHost & { renderRoot: ParentNode }, options: VirtualScrollOptions<T>) {
    this.#host = host;
    this.#options = options;
    this.#clock = options.clock ?? realClock;
    host.addController(this);
  }

  /** Starts over with `total` rows, of which the first chunk is `first`. */
  reset(total: number, first: T[]): void {
    this.stop();
    this.#cancelRetry?.();
    this.#failures = 0;
    this.#loads = new AbortController();
    this.#chunks = new Set([0]);
    this.rows = Array.from({ length: total }, (_, i) => first[i]);
  }

  /** Drops the chunk fetches under way: their rows never land. */
  stop(): void {
    this.#loads.abort();
  }

  /** Back to the first row, as after a new query. */
  toTop(): void {
    this.start = 0;
    this.#host.renderRoot.querySelector(this.#options.scroller)?.scrollTo(0, 0);
  }

  /** The rows the window renders: the visible ones, rounded out to `STEP`, plus the overscan. */
  range(): [number, number] {
    return [Math.max(0, this.start - OVERSCAN), Math.min(this.rows.length, this.start + this.visibleRows + STEP + OVERSCAN)];
  }

  /**
   * The window's rows, each by `row` or, until it arrives, `placeholder`, and the space before and
   * after it in pixels. Missing rows are queued for fetching.
   */
  window<R>(row: (item: T, index: number) => R, placeholder: (index: number) => R): { before: number; rows: R[]; after: number } {
    const [start, end] = this.range();
    const rows: R[] = [];
    let missing = false;
    for (let i = start; i < end; i++) {
      const item = this.rows[i];
      missing ||= !item;
      rows.push(item ? row(item, i) : placeholder(i));
    }
    if (missing) this.#queue();
    return { before: start * this.rowHeight, rows, after: (this.rows.length - end) * this.rowHeight };
  }

  /** The scroller's `scroll` listener: moves the window only when it crosses a `STEP`. */
  onScroll = (event: Event): void => {
    const first = Math.floor((event.currentTarget as HTMLElement).scrollTop / this.rowHeight);
    const start = first - (first % STEP);
    if (start !== this.start) {
      this.start = start;
      this.#host.requestUpdate();
    }
  };

  hostUpdated(): void {
    const scroller = this.#host.renderRoot.querySelector(this.#options.scroller);
    if (!scroller || scroller === this.#observed) return;
    this.#sizes ??= new ResizeObserver((entries) => {
      for (const entry of entries) {
        const height = entry.borderBoxSize[0]?.blockSize ?? entry.contentRect.height;
        if (entry.target !== this.#observed) {
          if (height > 8) this.rowHeight = height;
        } else this.#height = height;
      }
      // After both: the probe's entry comes after the scroller's.
      this.visibleRows = Math.ceil(this.#height / this.rowHeight) + 1;
      this.#host.requestUpdate();
    });
    this.#sizes.disconnect();
    this.#sizes.observe(scroller);
    this.#sizes.observe(scroller.querySelector(this.#options.probe)!);
    this.#observed = scroller;
  }

  hostDisconnected(): void {
    this.#cancelWait?.();
    this.#cancelRetry?.();
    this.stop();
    this.#sizes?.disconnect();
    this.#observed = undefined;
  }

  /** Fetches the chunks the window lacks once scrolling rests, or at the latest every `MAX_WAIT` ms. */
  #queue(): void {
    this.#cancelWait?.();
    const now = this.#clock.now();
    this.#waitSince ||= now;
    const wait = Math.max(0, Math.min(QUIET, this.#waitSince + MAX_WAIT - now));
    this.#cancelWait = this.#clock.after(wait, () => {
      this.#waitSince = 0;
      const size = this.#options.chunk;
      const [start, end] = this.range();
      for (let chunk = Math.floor(start / size); chunk * size < end; chunk++) {
        if (this.rows.slice(chunk * size, Math.min(end, (chunk + 1) * size)).includes(undefined)) void this.#fetch(chunk);
      }
    });
  }

  async #fetch(chunk: number): Promise<void> {
    if (this.#chunks.has(chunk)) return;
    this.#chunks.add(chunk);
    const { signal } = this.#loads;
    const size = this.#options.chunk;
    try {
      const rows = await this.#options.fetchChunk(chunk, signal);
      if (signal.aborted) return;
      rows.forEach((row, i) => (this.rows[chunk * size + i] = row));
      this.#failures = 0;
      this.#host.requestUpdate();
    } catch {
      this.#chunks.delete(chunk);
      if (signal.aborted) return;
      this.#options.failed();
      this.#retryLater();
    }
  }

  /**
   * Renders again after a while, so that a window resting on rows that failed asks for them again
   * without waiting for the next scroll.
   */
  #retryLater(): void {
    this.#cancelRetry?.();
    const delay = Math.min(RETRY_FIRST * 2 ** this.#failures, RETRY_MAX);
    this.#failures += 1;
    this.#cancelRetry = this.#clock.after(delay, () => {
      this.#cancelRetry = undefined;
      this.#host.requestUpdate();
    });
  }
}
