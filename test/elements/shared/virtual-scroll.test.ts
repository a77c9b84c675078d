import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { css, LitElement } from 'lit';
import { VirtualScroll, type ScrollClock } from '../../../src/elements/shared/virtual-scroll.js';
import { held, type Held } from '../support/held.js';

/** A clock the test moves by hand: nothing waits on real time. */
class HandClock implements ScrollClock {
  time = 1_000;
  timers: { at: number; run: () => void }[] = [];
  now = () => this.time;
  after = (ms: number, run: () => void) => {
    const timer = { at: this.time + ms, run };
    this.timers.push(timer);
    return () => (this.timers = this.timers.filter((each) => each !== timer));
  };
  advance(ms: number) {
    this.time += ms;
    const due = this.timers.filter((timer) => timer.at <= this.time);
    this.timers = this.timers.filter((timer) => timer.at > this.time);
    for (const timer of due) timer.run();
  }
}

/** A list of numbered rows, 20 px each in a 200 px scroller, fetched 100 at a time from held answers. */
class ScrollHost extends LitElement {
  static override styles = css`
    .scroller { height: 200px; overflow: auto; position: relative; }
    .probe { position: absolute; visibility: hidden; height: 20px; width: 1px; }
    p { height: 20px; margin: 0; }
  `;
  clock = new HandClock();
  asked: { chunk: number; answer: Held<string[]> }[] = [];
  failures = 0;
  virtual = new VirtualScroll<string>(this, {
    chunk: 100,
    fetchChunk: (chunk, signal) => {
      const answer = held<string[]>();
      this.asked.push({ chunk, answer });
      return answer.take(signal);
    },
    failed: () => (this.failures += 1),
    scroller: '.scroller',
    probe: '.probe',
    clock: this.clock,
  });
  override render() {
    const { before, rows, after } = this.virtual.window(
      (row) => html`<p class="row">${row}</p>`,
      (i) => html`<p class="placeholder">…${i}</p>`,
    );
    return html`<div class="scroller" @scroll=${this.virtual.onScroll}>
      <div class="probe"></div>
      <div style="height:${before}px"></div>
      ${rows}
      <div style="height:${after}px"></div>
    </div>`;
  }
}
customElements.define('scroll-host', ScrollHost);

const chunk = (index: number) => Array.from({ length: 100 }, (_, i) => `row ${index * 100 + i}`);
const shown = (el: ScrollHost) => [...el.shadowRoot!.querySelectorAll('p')].map((p) => p.textContent);

async function host(total = 1_000): Promise<ScrollHost> {
  const el = await fixture<ScrollHost>(html`<scroll-host></scroll-host>`);
  el.virtual.reset(total, chunk(0));
  el.requestUpdate();
  await el.updateComplete;
  await waitUntil(() => el.virtual.rowHeight === 20 && el.virtual.visibleRows === 11, 'the sizes were not read from CSS');
  await el.updateComplete;
  return el;
}

async function scrollTo(el: ScrollHost, top: number) {
  const scroller = el.shadowRoot!.querySelector('.scroller')!;
  scroller.scrollTop = top;
  scroller.dispatchEvent(new Event('scroll'));
  await el.updateComplete;
}

describe('VirtualScroll', () => {
  it('renders only the rows in view plus a margin, with spacers that keep the scrollbar true', async () => {
    const el = await host();
    expect(shown(el)).to.deep.equal(chunk(0).slice(0, 31));
    expect(el.shadowRoot!.querySelector('.scroller')!.scrollHeight).to.equal(1_000 * 20);
  });

  it('moves the window in steps of ten rows only', async () => {
    const el = await host();
    await scrollTo(el, 20 * 25);
    expect(el.virtual.start).to.equal(20);
    expect(shown(el)[0]).to.equal('row 10');
    await scrollTo(el, 20 * 29);
    expect(el.virtual.start, 'within the step').to.equal(20);
  });

  it('fetches a missing chunk once scrolling rests, shows placeholders while its answer is held, then the rows', async () => {
    const el = await host();
    await scrollTo(el, 20 * 150);
    expect(shown(el)).to.include('…150');
    el.clock.advance(149);
    expect(el.asked, 'nothing asked while the scroll has not rested').to.deep.equal([]);
    el.clock.advance(1);
    expect(el.asked.map((each) => each.chunk)).to.deep.equal([1]);
    await el.updateComplete;
    expect(shown(el)).to.include('…150');
    el.asked[0]!.answer.release(chunk(1));
    await waitUntil(() => shown(el).includes('row 150'), 'the chunk did not land');
    expect(shown(el).some((text) => text!.startsWith('…'))).to.equal(false);
  });

  it('asks at the latest every 600 ms while the scroll never rests, and once per chunk', async () => {
    const el = await host(100_000);
    for (let step = 1; step <= 6; step += 1) {
      await scrollTo(el, 20 * 1_000 * step);
      el.clock.advance(100);
    }
    // Rows 5,990 to 6,030: the ends of two chunks.
    expect(el.asked.map((each) => each.chunk), 'the wait is capped').to.deep.equal([59, 60]);
    await scrollTo(el, 20 * 6_050);
    el.clock.advance(150);
    expect(el.asked.map((each) => each.chunk), 'a chunk in flight is not asked again').to.deep.equal([59, 60]);
  });

  it('drops the rows of a chunk asked before a reset, and asks again for a chunk that failed', async () => {
    const el = await host();
    await scrollTo(el, 20 * 150);
    el.clock.advance(150);
    const [stale] = el.asked;
    el.virtual.reset(1_000, chunk(0).map((row) => `new ${row}`));
    expect(stale!.answer.signal!.aborted).to.equal(true);
    stale!.answer.release(chunk(1));
    await el.updateComplete;
    expect(el.virtual.rows[150]).to.equal(undefined);

    el.requestUpdate();
    await el.updateComplete;
    el.clock.advance(150);
    const [, retry] = el.asked;
    expect(retry!.chunk).to.equal(1);
    retry!.answer.fail(new Error('offline'));
    await waitUntil(() => el.failures === 1, 'the failure was not reported');
    el.requestUpdate();
    await el.updateComplete;
    el.clock.advance(150);
    expect(el.asked.map((each) => each.chunk)).to.deep.equal([1, 1, 1]);
  });

  it('asks again by itself for a chunk that failed while the window rests, waiting longer after each failure', async () => {
    const el = await host();
    await scrollTo(el, 20 * 150);
    el.clock.advance(150);
    // Nothing scrolls or renders from outside: the controller's own wait brings the next ask.
    const failThenWait = async (failures: number) => {
      el.asked.at(-1)!.answer.fail(new Error('busy'));
      await waitUntil(() => el.failures === failures, 'the failure was not reported');
      const waits = el.clock.timers.map((timer) => timer.at - el.clock.time);
      el.clock.advance(Math.max(...waits));
      await el.updateComplete;
      el.clock.advance(150);
      return waits;
    };
    expect(await failThenWait(1)).to.deep.equal([1_000]);
    expect(await failThenWait(2)).to.deep.equal([2_000]);
    expect(el.asked.map((each) => each.chunk)).to.deep.equal([1, 1, 1]);
    el.asked[2]!.answer.release(chunk(1));
    await waitUntil(() => shown(el).includes('row 150'), 'the rows did not arrive');
    // Answered: no further ask is waiting.
    expect(el.clock.timers).to.deep.equal([]);
  });
});
