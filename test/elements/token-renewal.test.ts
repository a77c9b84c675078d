import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../src/elements/invoice-list/define.js';
import '../../src/elements/client-form/define.js';
import type { InvoiceList } from '../../src/elements/invoice-list/invoice-list.js';
import type { ClientForm } from '../../src/elements/client-form/client-form.js';
import type { ClientSavedEvent } from '../../src/elements/client-form/events.js';
import type { TokenExpiredEvent } from '../../src/elements/shared/token-renewal.js';
import type { Client } from '../../src/api/schemas/client.js';
import { frame, listRequests, numbers, portal, settled, shadow } from './support/portal.js';

/**
 * A portal token that expires while the page is open, against the real BFF: the elements fire
 * `token-expired`, take a new token from the host (its handler or `tokenProvider`) and send the
 * failed request once more; only when the host gives none do they ask to reload the page.
 */

const { bff, tokens, invoices } = await portal();
const firstPage = invoices.main.slice().sort((a, b) => b.issue_date.localeCompare(a.issue_date) || b.id - a.id).slice(0, 25).map((i) => i.number);

async function newCustomer(): Promise<{ id: number; token: string; expiredToken: string; shortToken: string }> {
  return (await fetch('/__portal/new-customer')).json();
}
const serviceClient = async (id: number): Promise<Client> => (await fetch(`/__portal/client/${id}`)).json();

/** Every `token-expired` that reaches the document, with what it carried. */
function expiries(): { events: TokenExpiredEvent[]; stop: () => void } {
  const events: TokenExpiredEvent[] = [];
  const listener = (event: TokenExpiredEvent) => events.push(event);
  document.addEventListener('token-expired', listener);
  return { events, stop: () => document.removeEventListener('token-expired', listener) };
}

describe('<invoice-list> with a portal token that expired', () => {
  it('asks its tokenProvider once, sends the list request again under the new token, and shows the invoices', async () => {
    const seen = expiries();
    let calls = 0;
    const provider = () => {
      calls += 1;
      return Promise.resolve(tokens.main);
    };
    const before = listRequests();
    const el = await fixture<InvoiceList>(html`<invoice-list endpoint=${bff} portal-token=${tokens.expired} locale="en" .tokenProvider=${provider}></invoice-list>`);
    await waitUntil(() => numbers(el).length === 25, 'the list never showed the invoices', { timeout: 15_000 });
    await settled(el);
    seen.stop();
    expect(numbers(el)).to.deep.equal(firstPage);
    expect(calls).to.equal(1);
    expect(listRequests() - before).to.equal(2);
    expect(seen.events).to.have.length(1);
    const [event] = seen.events;
    expect(event!.type).to.equal('token-expired');
    expect([event!.bubbles, event!.composed, event!.cancelable, event!.target === el]).to.deep.equal([true, true, true, true]);
    // The host's own attribute is left as it set it.
    expect(el.portalToken).to.equal(tokens.expired);
    // Later requests go out under the renewed token, with no second event.
    const again = expiries();
    el.search = firstPage[3]!;
    await settled(el);
    again.stop();
    expect(numbers(el)).to.deep.equal([firstPage[3]]);
    expect(again.events).to.have.length(0);
    expect(calls).to.equal(1);
  });

  it('takes a token the host sets in its token-expired handler, without calling the provider', async () => {
    let calls = 0;
    const provider = () => {
      calls += 1;
      return Promise.resolve(tokens.empty);
    };
    const renew = (event: TokenExpiredEvent) => {
      (event.target as InvoiceList).portalToken = tokens.main;
    };
    const el = await fixture<InvoiceList>(
      html`<invoice-list endpoint=${bff} portal-token=${tokens.expired} locale="en" .tokenProvider=${provider} @token-expired=${renew}></invoice-list>`,
    );
    await waitUntil(() => numbers(el).length === 25, 'the list never showed the invoices', { timeout: 15_000 });
    await settled(el);
    expect(numbers(el)).to.deep.equal(firstPage);
    expect(el.portalToken).to.equal(tokens.main);
    expect(calls).to.equal(0);
    expect(frame(el).dataset.state).not.to.equal('error');
  });

  it('asks to reload the page when the host gives no token: no provider, a provider that fails, or a cancelled event', async () => {
    const failing = () => Promise.reject(new Error('signed out'));
    let calls = 0;
    const counting = () => {
      calls += 1;
      return Promise.resolve(tokens.main);
    };
    const cases = [
      html`<invoice-list endpoint=${bff} portal-token=${tokens.expired} locale="en"></invoice-list>`,
      html`<invoice-list endpoint=${bff} portal-token=${tokens.expired} locale="en" .tokenProvider=${failing}></invoice-list>`,
      html`<invoice-list endpoint=${bff} portal-token=${tokens.expired} locale="en" .tokenProvider=${counting} @token-expired=${(e: Event) => e.preventDefault()}></invoice-list>`,
    ];
    for (const template of cases) {
      const seen = expiries();
      const before = listRequests();
      const el = await fixture<InvoiceList>(template);
      await waitUntil(() => frame(el)?.dataset.state === 'error', 'the list showed no error', { timeout: 15_000 });
      seen.stop();
      expect(shadow(el).querySelector('[part~="error"]')!.textContent).to.contain('Your session has expired. Reload the page to sign in again.');
      expect(seen.events).to.have.length(1);
      expect(listRequests() - before).to.equal(1);
    }
    expect(calls).to.equal(0);
  });

  it('sends the request once more only: a provider that answers another expired token leaves the error', async () => {
    let calls = 0;
    const provider = () => {
      calls += 1;
      return Promise.resolve(`${tokens.expired}`.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')));
    };
    const before = listRequests();
    const el = await fixture<InvoiceList>(html`<invoice-list endpoint=${bff} portal-token=${tokens.expired} locale="en" .tokenProvider=${provider}></invoice-list>`);
    await waitUntil(() => frame(el)?.dataset.state === 'error', 'the list showed no error', { timeout: 15_000 });
    expect(calls).to.equal(1);
    expect(listRequests() - before).to.equal(2);
  });
});

describe('<client-form> with a portal token that expired', () => {
  it('loads under the token its provider gives, and saves under it too, without another event', async () => {
    const { id, token, expiredToken } = await newCustomer();
    const seen = expiries();
    let calls = 0;
    const provider = () => {
      calls += 1;
      return Promise.resolve(token);
    };
    const el = await fixture<ClientForm>(html`<client-form endpoint=${bff} portal-token=${expiredToken} locale="en" .tokenProvider=${provider}></client-form>`);
    const name = () => el.querySelector<HTMLInputElement>('[data-field="name"]')!;
    await waitUntil(() => name().value === 'Nowak Design Sp. z o.o.' && !name().disabled, 'the form never loaded', { timeout: 15_000 });
    expect(calls).to.equal(1);
    expect(seen.events).to.have.length(1);
    expect(seen.events[0]!.target).to.equal(el);
    name().value = 'Nowak Studio Sp. z o.o.';
    name().dispatchEvent(new Event('input', { bubbles: true }));
    const saved = oneEvent(el, 'client-saved') as Promise<ClientSavedEvent>;
    expect(await el.save()).to.equal(true);
    expect((await saved).detail.client.name).to.equal('Nowak Studio Sp. z o.o.');
    seen.stop();
    expect(seen.events).to.have.length(1);
    expect(calls).to.equal(1);
    expect((await serviceClient(id)).name).to.equal('Nowak Studio Sp. z o.o.');
  });

  it('saves under a token the host sets in its handler when the token expires while the form is open', async () => {
    const { id, token, shortToken } = await newCustomer();
    const el = await fixture<ClientForm>(html`<client-form endpoint=${bff} portal-token=${shortToken} locale="en"></client-form>`);
    const name = () => el.querySelector<HTMLInputElement>('[data-field="name"]')!;
    await waitUntil(() => name().value === 'Nowak Design Sp. z o.o.' && !name().disabled, 'the form never loaded', { timeout: 15_000 });
    const seen: string[] = [];
    el.addEventListener('token-expired', () => {
      seen.push(el.portalToken);
      el.portalToken = token;
    });
    name().value = 'Nowak Atelier Sp. z o.o.';
    name().dispatchEvent(new Event('input', { bubbles: true }));
    // The token runs out while the customer types: the save is refused as expired, and the handler renews it.
    await new Promise((resolve) => setTimeout(resolve, 4_200));
    expect(await el.save()).to.equal(true);
    expect(seen).to.deep.equal([shortToken]);
    expect((await serviceClient(id)).name).to.equal('Nowak Atelier Sp. z o.o.');
    await waitUntil(() => !name().disabled, 'the form did not settle', { timeout: 15_000 });
    expect(name().value).to.equal('Nowak Atelier Sp. z o.o.');
  });

  it('asks to reload the page when the host gives no token', async () => {
    const { expiredToken } = await newCustomer();
    const seen = expiries();
    const el = await fixture<ClientForm>(html`<client-form endpoint=${bff} portal-token=${expiredToken} locale="en"></client-form>`);
    await waitUntil(() => el.querySelector('[role="alert"]'), 'the form showed no error', { timeout: 15_000 });
    seen.stop();
    expect(el.querySelector('[role="alert"]')!.textContent).to.contain('Your session has expired. Reload the page to sign in again.');
    expect(seen.events).to.have.length(1);
  });
});
