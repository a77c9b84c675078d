/** Points the header's service links (the outbox) at the embedded service, wherever it listens. */
async function linkService(): Promise<void> {
  const response = await fetch('/demo-api/config');
  if (!response.ok) return;
  const { serviceUrl } = (await response.json()) as { serviceUrl: string };
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-service-link]')) {
    link.href = new URL(new URL(link.href).pathname, serviceUrl).href;
  }
}

void linkService();
