import type { Sql } from '../sql.js';

/**
 * The durable queue of invoices to send to KSeF (`ksef_jobs`): a job holds the exact FA(3) document
 * from the moment it was asked for, `queued` until KSeF has taken it, `submitted` with KSeF's receipt
 * until KSeF decides, then `done` or `failed`. The sender works through it; the invoices' routes and
 * e-mails read it.
 */

/** A job to queue: the exact document, due at `nextAttemptAt`. */
export interface NewKsefJob {
  accountId: number;
  invoiceId: number;
  environment: string;
  sellerNip: string;
  offline: boolean;
  xml: string;
  nextAttemptAt: Date;
}

/** Queues a job, in the caller's transaction (the invoice answers `processing` in the same one). */
export async function queueKsefJob(sql: Sql, job: NewKsefJob): Promise<void> {
  await sql.query(
    `insert into ksef_jobs (account_id, invoice_id, environment, seller_nip, offline, xml, next_attempt_at) values ($1, $2, $3, $4, $5, $6, $7)`,
    [job.accountId, job.invoiceId, job.environment, job.sellerNip, job.offline, job.xml, job.nextAttemptAt],
  );
}

/** Whether the invoice has a job on its way to KSeF (queued or submitted). */
export async function ksefJobInFlight(sql: Sql, invoiceId: number): Promise<boolean> {
  return (await sql.query(`select 1 from ksef_jobs where invoice_id = $1 and state in ('queued', 'submitted') limit 1`, [invoiceId])).length > 0;
}

/** Whether the invoice's latest job was sent in offline mode. */
export async function lastKsefJobOffline(sql: Sql, invoiceId: number): Promise<boolean> {
  return (await sql.query<{ offline: boolean }>(`select offline from ksef_jobs where invoice_id = $1 order by id desc limit 1`, [invoiceId]))[0]?.offline === true;
}

/** The document of the invoice's latest job and where it went; `Environment` is the caller's type of KSeF's environments. */
export async function lastKsefJobDocument<Environment extends string>(
  sql: Sql,
  invoiceId: number,
): Promise<{ environment: Environment; seller_nip: string; xml: string } | undefined> {
  const [job] = await sql.query<{ environment: Environment; seller_nip: string; xml: string }>(
    `select environment, seller_nip, xml from ksef_jobs where invoice_id = $1 order by id desc limit 1`,
    [invoiceId],
  );
  return job;
}

/** The FA(3) document and the UPO of the account's invoice's latest job KSeF has taken (submitted or done). */
export async function sentKsefDocuments(sql: Sql, accountId: number, invoiceId: number): Promise<{ xml: string; upo: string | null } | undefined> {
  const rows = await sql.query<{ xml: string; upo: string | null }>(
    `select xml, upo from ksef_jobs where account_id = $1 and invoice_id = $2 and state in ('submitted', 'done') order by id desc limit 1`,
    [accountId, invoiceId],
  );
  return rows[0];
}

/** Whether any job is due by `now`: a plain read, which writes nothing. */
export async function anyKsefJobDue(sql: Sql, now: Date): Promise<boolean> {
  return (await sql.query(`select 1 from ksef_jobs where state in ('queued', 'submitted') and next_attempt_at <= $1 limit 1`, [now])).length > 0;
}

/**
 * Leases the job due first by `now` until `leaseUntil`, skipping those another process holds
 * (`for update skip locked`); run it in a transaction of its own. `Job` is the caller's view of the
 * claimed columns.
 */
export async function leaseDueKsefJob<Job>(sql: Sql, now: Date, leaseUntil: Date): Promise<Job | undefined> {
  const rows = await sql.query<Job>(
    `update ksef_jobs set next_attempt_at = $2, updated_at = now()
          where id = (select id from ksef_jobs where state in ('queued', 'submitted') and next_attempt_at <= $1
                       order by next_attempt_at, id limit 1 for update skip locked)
          returning id, account_id, invoice_id, environment, seller_nip, offline, xml, state, receipt, ksef_number, attempts`,
    [now, leaseUntil],
  );
  return rows[0];
}

/** KSeF has taken the job's document: its receipt (JSON) is stored before the outcome is read. */
export async function markKsefJobSubmitted(sql: Sql, jobId: number, receiptJson: string): Promise<void> {
  await sql.query(`update ksef_jobs set state = 'submitted', receipt = $2, updated_at = now() where id = $1`, [jobId, receiptJson]);
}

/** KSeF dropped the document: the job is queued again, without its receipt, for `nextAttemptAt`. */
export async function requeueKsefJob(sql: Sql, jobId: number, nextAttemptAt: Date, error: string): Promise<void> {
  await sql.query(`update ksef_jobs set state = 'queued', receipt = null, attempts = attempts + 1, next_attempt_at = $2, last_error = $3, updated_at = now() where id = $1`, [
    jobId,
    nextAttemptAt,
    error,
  ]);
}

/** The job is looked at again at `nextAttemptAt`, one attempt more. */
export async function postponeKsefJob(sql: Sql, jobId: number, nextAttemptAt: Date, error: string | null): Promise<void> {
  await sql.query(`update ksef_jobs set attempts = attempts + 1, next_attempt_at = $2, last_error = $3, updated_at = now() where id = $1`, [jobId, nextAttemptAt, error]);
}

/** KSeF numbered the job's invoice: `done`, or still `submitted` while its UPO is awaited (read again at `nextAttemptAt`). */
export async function acceptKsefJob(
  sql: Sql,
  jobId: number,
  state: 'done' | 'submitted',
  ksefNumber: string,
  upo: string | null,
  nextAttemptAt: Date,
): Promise<void> {
  await sql.query(
    `update ksef_jobs set state = $2, ksef_number = $3, upo = coalesce($4, upo), next_attempt_at = $5, attempts = attempts + 1, updated_at = now() where id = $1`,
    [jobId, state, ksefNumber, upo, nextAttemptAt],
  );
}

/** The job failed for good, with its messages (one a line). */
export async function failKsefJob(sql: Sql, jobId: number, error: string): Promise<void> {
  await sql.query(`update ksef_jobs set state = 'failed', last_error = $2, updated_at = now() where id = $1`, [jobId, error]);
}
