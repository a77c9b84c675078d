import { announce, type DemoSession, signIn } from './session.js';

const form = document.querySelector<HTMLFormElement>('#account-form')!;
let session: DemoSession | undefined;

const FIELDS = ['name', 'tax_no', 'email', 'street', 'post_code', 'city', 'country', 'phone'] as const;

async function load(current: DemoSession): Promise<void> {
  session = current;
  const response = await fetch('/bff/client', { headers: { authorization: `Bearer ${current.token}` } });
  if (!response.ok) return announce('Your details could not be loaded.', 'error');
  const client = (await response.json()) as Record<string, string | null>;
  for (const field of FIELDS) {
    const input = form.elements.namedItem(field) as HTMLInputElement | null;
    if (input) input.value = client[field] ?? '';
  }
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (!session) return;
  const changes = Object.fromEntries(FIELDS.map((f) => [f, String(new FormData(form).get(f) ?? '')]));
  const response = await fetch('/bff/client', {
    method: 'PUT',
    headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(changes),
  });
  if (response.ok) announce('Saved. New invoices will use these details.');
  else {
    const body = (await response.json().catch(() => ({}))) as { error?: { message?: string; fields?: Record<string, string[]> } };
    const fields = Object.entries(body.error?.fields ?? {}).map(([k, v]) => `${k} ${v.join(', ')}`);
    announce(fields.length > 0 ? fields.join('; ') : (body.error?.message ?? 'Saving failed.'), 'error');
  }
});

signIn((current) => void load(current)).catch((error: unknown) => announce(`The demo could not sign in: ${String(error)}`, 'error'));
