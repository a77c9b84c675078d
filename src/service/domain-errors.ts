/**
 * What the domain refuses, in its own terms: a record that is not there, or fields that fail its
 * rules. Data access and invoicing throw these and know no HTTP; the HTTP layer (`http.ts`,
 * `apiErrorOf`) answers them with the reference's status and body.
 */

/** The account has no such record (or it belongs to another account, which must look the same). */
export class NotFoundError extends Error {
  constructor() {
    super('Not found');
    this.name = 'NotFoundError';
  }
}

/** Fields that fail the rules, each with its messages: `{"buyer_name":["can't be blank"]}`. */
export class ValidationError extends Error {
  readonly fields: Record<string, string[]>;

  constructor(fields: Record<string, string[]>) {
    super('Validation failed');
    this.name = 'ValidationError';
    this.fields = fields;
  }

  /** The reference's 422 body. */
  get body(): { code: 'error'; message: Record<string, string[]> } {
    return { code: 'error', message: this.fields };
  }
}

export const notFound = () => new NotFoundError();
export const invalid = (fields: Record<string, string[]>) => new ValidationError(fields);
export const invalidField = (field: string, message: string) => invalid({ [field]: [message] });

/** Collects field errors, so that one answer names every bad field rather than the first. */
export class Problems {
  readonly fields: Record<string, string[]> = {};

  /** Starts from problems already found (another check's `fields`). */
  constructor(found: Record<string, string[]> = {}) {
    for (const [field, messages] of Object.entries(found)) for (const message of messages) this.add(field, message);
  }

  add(field: string, message: string): void {
    (this.fields[field] ??= []).push(message);
  }

  has(field: string): boolean {
    return Object.hasOwn(this.fields, field);
  }

  get empty(): boolean {
    return Object.keys(this.fields).length === 0;
  }

  /** Throws the 422 naming every field collected, if there is any. */
  throwIfAny(): void {
    if (!this.empty) throw invalid(this.fields);
  }
}
