/**
 * Points the header's service links at the embedded service, wherever it listens. The outbox link
 * is a short-lived signed one for the demo account, made by the demo's backend; with SMTP
 * configured there is no outbox and the link goes away.
 */
async function linkService(): Promise<void> {
  const response = await fetch('/demo-api/config');
  if (!response.ok) return;
  const { serviceUrl, outboxUrl } = (await response.json()) as { serviceUrl: string; outboxUrl: string | null };
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-service-link]')) {
    if (link.id === 'outbox-link') {
      if (outboxUrl) link.href = outboxUrl;
      else link.remove();
      continue;
    }
    link.href = new URL(new URL(link.href).pathname, serviceUrl).href;
  }
}

void linkService();
