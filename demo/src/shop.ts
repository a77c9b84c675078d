import { announce } from './session.js';

interface PublicProduct {
  token: string;
  name: string;
  description: string | null;
  price_gross: string;
  currency: string;
}

const grid = document.querySelector<HTMLElement>('#products')!;
const dialog = document.querySelector<HTMLDialogElement>('#checkout')!;
const form = document.querySelector<HTMLFormElement>('#checkout-form')!;
let selected: PublicProduct | undefined;
let idempotencyKey = '';

function money(amount: string, currency: string): string {
  // Intl formats the decimal string itself, so no float rounding enters the price shown.
  return new Intl.NumberFormat(document.documentElement.lang || 'en', { style: 'currency', currency }).format(
    amount as unknown as number,
  );
}

async function render(): Promise<void> {
  const tokens = (grid.dataset.products ?? '').split(/\s+/).filter(Boolean);
  const products = await Promise.all(
    tokens.map(async (token) => {
      const response = await fetch(`/bff/products/${encodeURIComponent(token)}`);
      return response.ok ? ((await response.json()) as PublicProduct) : undefined;
    }),
  );
  grid.replaceChildren(
    ...products.filter((p): p is PublicProduct => Boolean(p)).map((product) => {
      const card = document.createElement('article');
      card.className = 'card';
      const title = document.createElement('h2');
      title.textContent = product.name;
      const price = document.createElement('div');
      price.className = 'price';
      price.textContent = money(product.price_gross, product.currency);
      const buy = document.createElement('button');
      buy.textContent = 'Buy now';
      buy.addEventListener('click', () => {
        selected = product;
        idempotencyKey = crypto.randomUUID();
        document.querySelector('#checkout-title')!.textContent = product.name;
        dialog.showModal();
      });
      card.append(title, price, buy);
      return card;
    }),
  );
}

document.querySelector('#cancel')!.addEventListener('click', () => dialog.close());
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (!selected) return;
  const data = new FormData(form);
  const pay = document.querySelector<HTMLButtonElement>('#pay')!;
  pay.disabled = true;
  try {
    const response = await fetch('/bff/checkout', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: JSON.stringify({
        product: selected.token,
        quantity: Number(data.get('quantity') ?? 1),
        buyer: { email: String(data.get('email')), name: String(data.get('name') ?? '') || undefined },
        returnUrl: `${location.origin}/shop.html?paid=1`,
        cancelUrl: `${location.origin}/shop.html`,
      }),
    });
    const body = (await response.json()) as { redirectUrl?: string; error?: { message: string } };
    if (response.ok && body.redirectUrl) location.assign(body.redirectUrl);
    else announce(body.error?.message ?? 'Checkout failed.', 'error');
  } finally {
    pay.disabled = false;
  }
});

if (new URLSearchParams(location.search).has('paid')) announce('Thank you! Your payment went through and the invoice is on its way.');
render().catch((error: unknown) => announce(`Products could not be loaded: ${String(error)}`, 'error'));
