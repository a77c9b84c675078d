import type { Database, Sql } from './db.js';

/**
 * Versioned schema migrations, applied in order at start-up. A migration is never edited once it
 * has shipped: add a new one instead.
 *
 * Every account-level resource table has the same shape: an integer id, the owning account, the
 * resource's wire fields in `data`, and timestamps. Columns that queries filter or join on are
 * indexed as expressions over `data`.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const resourceTable = (name: string) => `
  create table ${name} (
    id serial primary key,
    account_id integer not null references accounts(id) on delete cascade,
    data jsonb not null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  );
  create index ${name}_account_idx on ${name} (account_id, id);
`;

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'core resources',
    sql: `
      create table accounts (
        id serial primary key,
        prefix text not null unique,
        api_token text not null unique,
        name text,
        data jsonb not null default '{}',
        created_at timestamptz not null default now()
      );
      create table users (
        id serial primary key,
        account_id integer not null references accounts(id) on delete cascade,
        login text not null unique,
        email text not null,
        password_hash text not null,
        data jsonb not null default '{}',
        created_at timestamptz not null default now()
      );
      create index users_email_idx on users (lower(email));
      ${resourceTable('departments')}
      ${resourceTable('clients')}
      create index clients_external_id_idx on clients (account_id, (data->>'external_id'));
      create index clients_name_idx on clients (account_id, lower(data->>'name'));
      ${resourceTable('products')}
      create unique index products_token_idx on products (account_id, (data->>'token'));
      ${resourceTable('categories')}
      ${resourceTable('warehouses')}
      ${resourceTable('invoices')}
      create unique index invoices_number_idx on invoices (account_id, (data->>'kind'), (data->>'number'));
      create unique index invoices_token_idx on invoices ((data->>'token'));
      create index invoices_oid_idx on invoices (account_id, (data->>'oid'));
      create index invoices_client_idx on invoices (account_id, ((data->>'client_id')::integer));
      create index invoices_issue_date_idx on invoices (account_id, (data->>'issue_date'));
      ${resourceTable('payments')}
      create index payments_invoice_idx on payments (account_id, ((data->>'invoice_id')::integer));
      ${resourceTable('warehouse_documents')}
      create unique index warehouse_documents_number_idx
        on warehouse_documents (account_id, (data->>'kind'), (data->>'number'));
      create table number_sequences (
        account_id integer not null references accounts(id) on delete cascade,
        scope text not null,
        last_value integer not null,
        primary key (account_id, scope)
      );
      create table stock_levels (
        account_id integer not null references accounts(id) on delete cascade,
        warehouse_id integer not null,
        product_id integer not null,
        level numeric not null default 0,
        primary key (account_id, warehouse_id, product_id)
      );
      create sequence line_ids;
      create table settings (key text primary key, value text not null);
    `,
  },
  {
    version: 2,
    name: 'outbox, department logos, payment tokens',
    sql: `
      create table outbox_messages (
        id serial primary key,
        token text not null unique,
        account_id integer references accounts(id) on delete cascade,
        invoice_id integer,
        sender text not null,
        reply_to text,
        recipients jsonb not null,
        subject text not null,
        text_body text not null,
        html_body text,
        created_at timestamptz not null default now()
      );
      create index outbox_messages_created_idx on outbox_messages (created_at desc, id desc);
      create table outbox_attachments (
        id serial primary key,
        message_id integer not null references outbox_messages(id) on delete cascade,
        filename text not null,
        content_type text not null,
        content bytea not null
      );
      create index outbox_attachments_message_idx on outbox_attachments (message_id, id);
      create table department_logos (
        department_id integer primary key references departments(id) on delete cascade,
        account_id integer not null references accounts(id) on delete cascade,
        content_type text not null,
        content bytea not null,
        updated_at timestamptz not null default now()
      );
      create index payments_token_idx on payments ((data->>'token'));
    `,
  },
  {
    version: 3,
    name: 'idempotency keys',
    sql: `
      create table idempotency_keys (
        account_id integer not null references accounts(id) on delete cascade,
        key text not null,
        fingerprint text not null,
        status integer not null default 0,
        content_type text,
        body text,
        created_at timestamptz not null default now(),
        primary key (account_id, key)
      );
    `,
  },
  {
    version: 10,
    name: 'failed login counts shared by every process',
    sql: `
      create table login_failures (
        key text primary key,
        count integer not null,
        reset_at timestamptz not null
      );
      `,
    },
    {
    version: 20,
    name: 'list order indexes, account change notifications',
    sql: `
      create index invoices_list_idx on invoices (account_id, (data->>'issue_date') desc nulls last, id desc);
      create index invoices_client_list_idx
        on invoices (account_id, ((data->>'client_id')::integer), (data->>'issue_date') desc nulls last, id desc);
      drop index invoices_issue_date_idx;
      drop index invoices_client_idx;
      create function invoicekit_accounts_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify('invoicekit_accounts', '');
        return null;
      end $$;
      create trigger accounts_changed after update or delete on accounts
        for each statement execute function invoicekit_accounts_changed();
    `,
  },
  {
    version: 50,
    name: 'webhooks, recurring invoices, price lists, issuers, attachments, account links',
    sql: `
      ${resourceTable('webhooks')}
      create index webhooks_kind_idx on webhooks (account_id, (data->>'kind'));
      create table webhook_deliveries (
        id bigserial primary key,
        account_id integer not null references accounts(id) on delete cascade,
        webhook_id integer not null references webhooks(id) on delete cascade,
        delivery_id text not null unique,
        kind text not null,
        record_table text not null,
        record_id integer not null,
        record jsonb not null,
        body text,
        status text not null default 'pending',
        attempts integer not null default 0,
        next_attempt_at timestamptz default now(),
        last_attempt_at timestamptz,
        last_status integer,
        last_error text,
        delivered_at timestamptz,
        created_at timestamptz not null default now()
      );
      create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at, id) where status = 'pending';
      create index webhook_deliveries_webhook_idx on webhook_deliveries (webhook_id, id desc);
      ${resourceTable('recurrings')}
      create index recurrings_due_idx on recurrings ((data->>'next_invoice_date'));
      create table recurring_runs (
        recurring_id integer not null references recurrings(id) on delete cascade,
        period text not null,
        invoice_id integer,
        created_at timestamptz not null default now(),
        primary key (recurring_id, period)
      );
      ${resourceTable('price_lists')}
      ${resourceTable('issuers')}
      create table attachments (
        id serial primary key,
        account_id integer not null references accounts(id) on delete cascade,
        invoice_id integer not null references invoices(id) on delete cascade,
        file_name text not null,
        content_type text not null,
        size integer not null,
        content bytea not null,
        created_at timestamptz not null default now()
      );
      create index attachments_invoice_idx on attachments (invoice_id, id);
      create table attachment_uploads (
        key text primary key,
        account_id integer not null references accounts(id) on delete cascade,
        invoice_id integer not null references invoices(id) on delete cascade,
        expires_at timestamptz not null,
        file_name text,
        content_type text,
        size integer,
        content bytea,
        created_at timestamptz not null default now()
      );
      create table account_links (
        partner_account_id integer not null references accounts(id) on delete cascade,
        account_id integer not null references accounts(id) on delete cascade,
        created_at timestamptz not null default now(),
        primary key (partner_account_id, account_id)
      );
      create table account_deletions (
        token text primary key,
        account_id integer not null references accounts(id) on delete cascade,
        expires_at timestamptz not null,
        created_at timestamptz not null default now()
      );
    `,
  },
  {
    version: 60,
    name: 'rate limits of public routes',
    sql: `
      create table rate_limits (
        key text primary key,
        window_end timestamptz not null,
        count integer not null
      );
    `,
  },
  {
    version: 70,
    name: 'position names and discounts beside each invoice, for lists',
    // A list without positions reads these instead of the positions (see
    // docs/decisions/postgres-list-speed.md). Generated, so no write can leave them behind.
    sql: `
      alter table invoices
        add column position_names jsonb generated always as (jsonb_path_query_array(data, '$.positions[*].name')) stored,
        add column position_discounts jsonb generated always as (jsonb_path_query_array(data, '$.positions[*].discount')) stored;
    `,
  },
  {
    version: 80,
    name: 'KSeF settings per account and the durable queue of invoices sent to KSeF',
    // A job is written, with the exact XML, before anything is sent: after a crash the same document
    // is sent again (KSeF answers a duplicate with the original's number) or its outcome read by its receipt.
    sql: `
      create table ksef_settings (
        account_id integer primary key references accounts(id) on delete cascade,
        environment text not null default 'off',
        token text,
        auto_send_mode text,
        validate_invoices_for_gov boolean not null default true,
        -- Automatic sending looks at invoices after this id (those issued since it was turned on).
        auto_send_after_id integer not null default 0,
        updated_at timestamptz not null default now()
      );
      create table ksef_jobs (
        id bigserial primary key,
        account_id integer not null references accounts(id) on delete cascade,
        invoice_id integer not null references invoices(id) on delete cascade,
        environment text not null,
        seller_nip text not null,
        offline boolean not null default false,
        xml text not null,
        state text not null default 'queued',
        receipt jsonb,
        ksef_number text,
        upo text,
        attempts integer not null default 0,
        next_attempt_at timestamptz not null default now(),
        last_error text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index ksef_jobs_due_idx on ksef_jobs (next_attempt_at, id) where state in ('queued', 'submitted');
      create index ksef_jobs_invoice_idx on ksef_jobs (invoice_id, id desc);
    `,
  },
  {
    version: 83,
    name: "the account's KSeF Offline certificate, for KOD II",
    // Write-only like the token, and kept the way the token is kept.
    sql: `alter table ksef_settings add column offline_certificate text, add column offline_private_key text;`,
  },
  {
    version: 90,
    name: 'NBP exchange rates kept per currency and tax point, and the invoices waiting for one',
    sql: `create table exchange_rates (
            currency text not null, tax_point date not null, rate text not null, table_no text not null,
            effective_date date not null, fetched_at timestamptz not null default now(),
            primary key (currency, tax_point));
          create table exchange_rate_waits (
            invoice_id integer primary key references invoices(id) on delete cascade, account_id integer not null,
            currency text not null, tax_point date not null, attempts integer not null default 0,
            next_attempt_at timestamptz not null, last_error text);
          create index exchange_rate_waits_due_idx on exchange_rate_waits (next_attempt_at);`,
  },
  {
    version: 91,
    name: 'the seller alerts sent, one per invoice and state',
    sql: `create table seller_alerts (
            invoice_id integer not null references invoices(id) on delete cascade, account_id integer not null,
            attention text not null, told_at timestamptz not null default now(),
            primary key (invoice_id, attention));`,
  },
  {
    version: 100,
    name: 'api_tokens found by a keyed hash, kept sealed',
    // The token itself is sealed (secrets/stored.ts) by the step that runs after the migrations.
    sql: `alter table accounts add column api_token_hash text;
      create unique index accounts_api_token_hash_idx on accounts (api_token_hash);`,
  },
  {
    version: 101,
    name: 'back-office sessions',
    // Found by a hash of the cookie's id: the table alone opens no session.
    sql: `create table admin_sessions (
            id_hash text primary key,
            user_id integer not null references users(id) on delete cascade,
            account_id integer not null references accounts(id) on delete cascade,
            csrf text not null,
            created_at timestamptz not null default now(),
            expires_at timestamptz not null);
          create index admin_sessions_expires_idx on admin_sessions (expires_at);`,
  },
  {
    version: 102,
    name: "every e-mail sent or tried for an invoice, with the mail server's answer",
    // Apart from the outbox: SMTP mail is logged without its body, and a failure is kept too.
    sql: `create table mail_log (
            id serial primary key,
            account_id integer not null,
            invoice_id integer not null references invoices(id) on delete cascade,
            sent_at timestamptz not null default now(),
            recipients jsonb not null,
            subject text not null,
            transport text not null,
            status text not null,
            error text);
          create index mail_log_invoice_idx on mail_log (account_id, invoice_id, id desc);
          create index mail_log_failed_idx on mail_log (sent_at) where status = 'failed';`,
  },
  {
    version: 103,
    name: 'the seller alerts sent of payments, webhooks and e-mails, one per record and kind',
    sql: `create table seller_record_alerts (
            account_id integer not null references accounts(id) on delete cascade,
            kind text not null, record_id integer not null, told_at timestamptz not null default now(),
            primary key (account_id, kind, record_id));`,
  },
];

const MIGRATION_LOCK = 7_204_311;

/** The versions of the migrations the database holds (a database never migrated has no `schema_migrations` and fails). */
export async function appliedMigrationVersions(sql: Sql): Promise<number[]> {
  const rows = await sql.query<{ version: number }>('select version from schema_migrations');
  return rows.map((row) => Number(row.version));
}

/** Applies every migration newer than the database, under a lock so that many processes may start at once. */
export async function migrate(db: Database): Promise<void> {
  migrations.forEach((migration, index) => {
    if (index > 0 && migration.version <= migrations[index - 1]!.version) {
      throw new Error(`migration ${migration.version} (${migration.name}) is out of order`);
    }
  });
  await db.transaction(async (tx) => {
    if (db.kind === 'postgres') await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`create table if not exists schema_migrations (
      version integer primary key, name text not null, applied_at timestamptz not null default now())`);
    const applied = new Set(
      (await tx.query<{ version: number }>('select version from schema_migrations')).map((r) => r.version),
    );
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [migration.version, migration.name]);
    }
  });
}
