import type { Sql } from '../db.js';

/**
 * What needs an account's seller now, in one query (docs/decisions/back-office.md): invoices KSeF
 * refused or would refuse, or that wait for a rate, VIES or a KSeF number; overdue invoices;
 * payments a provider declined or has not confirmed; webhooks that keep failing. E-mails that keep
 * failing come from the e-mail log (`data/mail-log.ts`).
 */
export interface AttentionRow {
  kind: string;
  id: number;
  invoice_id: number | null;
  number: string | null;
  message: string | null;
  webhook_id: number | null;
  since: Date | null;
}

/** At most this many items of one kind: the overview points at a list, it is not one. */
export const ATTENTION_PER_KIND = 100;

/** The states an invoice itself carries (`data.attention`, set by the issuing step and the KSeF sender). */
const INVOICE_ATTENTIONS = ['ksef_rejected', 'ksef_invalid', 'awaiting_exchange_rate', 'vies_unavailable', 'einvoice_unavailable'];

export async function attentionOf(sql: Sql, accountId: number, now: Date): Promise<AttentionRow[]> {
  return sql.query<AttentionRow>(
    `with items as (
       -- The invoice's own state; KSeF's reasons with a refusal, the missing fields of an e-invoice.
       select i.data->>'attention' as kind, i.id, i.id as invoice_id, i.data->>'number' as number,
              case when jsonb_typeof(i.data->'gov_error_messages') = 'array'
                   then (select string_agg(m, '; ') from jsonb_array_elements_text(i.data->'gov_error_messages') as m)
                   when jsonb_typeof(i.data->'einvoice_problems') = 'array'
                   then (select string_agg(m, '; ') from jsonb_array_elements_text(i.data->'einvoice_problems') as m) end as message,
              null::integer as webhook_id, i.updated_at as since
         from invoices i
        where i.account_id = $1 and i.data->>'attention' = any($3::text[])
       union all
       -- Sent to KSeF and not numbered yet: the newest job of the invoice is still on its way.
       select 'awaiting_ksef_number', i.id, i.id, i.data->>'number', j.last_error, null, j.created_at
         from ksef_jobs j join invoices i on i.id = j.invoice_id and i.account_id = j.account_id
        where j.account_id = $1 and j.state in ('queued', 'submitted')
          and j.id = (select max(k.id) from ksef_jobs k where k.invoice_id = j.invoice_id)
       union all
       -- Due and unpaid after its payment date, as the invoice summary counts it.
       select 'overdue', i.id, i.id, i.data->>'number', null, null, (r.payment_to || 'T00:00:00Z')::timestamptz
         from invoices i, jsonb_to_record(i.data) as r(payment_to text, price_gross numeric, paid text, status text, cancelled text)
        where i.account_id = $1 and r.status in ('issued', 'sent', 'partial') and coalesce(r.cancelled, 'false') <> 'true'
          and r.payment_to ~ '^\\d{4}-\\d{2}-\\d{2}$' and r.payment_to < $2
          and r.price_gross - coalesce(nullif(r.paid, '')::numeric, 0) > 0
       union all
       -- Declined by the provider, or taken by it and not confirmed for a quarter of an hour (within 30 days).
       select case when p.data->>'provider_status' = 'declined' then 'payment_failed' else 'payment_pending' end,
              p.id, inv.id, inv.data->>'number', p.data->>'provider_response', null, p.created_at
         from payments p
         left join invoices inv on inv.account_id = p.account_id and p.data->>'invoice_id' ~ '^\\d{1,9}$' and inv.id = (p.data->>'invoice_id')::integer
        where p.account_id = $1 and coalesce(p.data->>'paid', 'false') = 'false' and coalesce(p.data->>'deleted', 'false') = 'false'
          and p.created_at > $5::timestamptz - interval '30 days'
          and (p.data->>'provider_status' = 'declined'
               or (coalesce(p.data->>'provider_status', 'pending') = 'pending' and p.data->>'provider_title' is not null
                   and p.created_at < $5::timestamptz - interval '15 minutes'))
       union all
       -- A webhook whose deliveries failed (or keep being retried) this week, with none delivered since.
       select 'webhook_failing', d.webhook_id, null, null, (array_agg(d.last_error order by d.id desc))[1], d.webhook_id, min(d.created_at)
         from webhook_deliveries d
        where d.account_id = $1 and d.created_at > $5::timestamptz - interval '7 days'
          and (d.status = 'failed' or (d.status = 'pending' and d.attempts >= 3))
          and not exists (select 1 from webhook_deliveries ok where ok.webhook_id = d.webhook_id and ok.status = 'delivered' and ok.id > d.id)
        group by d.webhook_id
     )
     select kind, id, invoice_id, number, message, webhook_id, since
       from (select items.*, row_number() over (partition by kind order by since nulls last, id) as n from items) as ranked
      where n <= $4
      order by kind, since nulls last, id`,
    [accountId, now.toISOString().slice(0, 10), INVOICE_ATTENTIONS, ATTENTION_PER_KIND, now.toISOString()],
  );
}
