import type { Hono } from 'hono';
import { departmentInput } from '../../api/schemas/account.js';
import type { DepartmentData } from '../accounts.js';
import { departmentLogo, putDepartmentLogo } from '../data/department-logos.js';
import { ApiError, idParam, invalidField, respond, type ServiceEnv, validate } from '../http.js';
import { requireRow, updateRow } from '../store.js';
import { LogoImageError, type NormalizedLogo } from '../documents/logo-image.js';
import { normalizeLogoOffThread } from '../documents/logo-thread.js';
import { merge } from './crud.js';
import { presentDepartment } from './departments.js';

const MAX_LOGO_BYTES = 2 * 1024 * 1024;

/**
 * `PUT /departments/<id>.json` as multipart with `api_token` and `department[logo]` (spec §4.9):
 * a PNG or JPEG of at most 2 MiB, decoded under limits and stored normalized (a PNG as plain 8-bit
 * RGB or RGBA; a JPEG as sent, once checked). Other `department[...]` fields in the same form are applied too.
 * `GET /departments/<id>/logo` serves the stored image to the account.
 */
export function mountDepartmentLogo(app: Hono<ServiceEnv>): void {
  app.put('/:id', async (c, next) => {
    if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) return next();
    const id = idParam(c);
    const account = c.get('account');
    const form = (c.get('body').department ?? {}) as Record<string, unknown>;
    const { logo, ...fields } = form;
    if (!(logo instanceof Blob)) throw invalidField('department.logo', "can't be blank");
    if (logo.size > MAX_LOGO_BYTES) throw new ApiError(413, 'The logo is larger than 2 MiB');
    // Decoded under limits, off the request thread, and stored normalized: the renderer can always draw it.
    let normalized: NormalizedLogo;
    try {
      normalized = await normalizeLogoOffThread(new Uint8Array(await logo.arrayBuffer()));
    } catch (error) {
      if (error instanceof LogoImageError) throw invalidField('department.logo', error.message);
      throw error;
    }
    const { contentType, content } = normalized;
    const changes = validate(departmentInput, fields, 'department');
    const row = await c.get('db').transaction(async (tx) => {
      const current = await requireRow<DepartmentData>(tx, 'departments', account.id, id, { forUpdate: true });
      await putDepartmentLogo(tx, account.id, id, { contentType, content });
      const data = merge(current.data, { ...changes, name: changes.name || undefined });
      data.logo = { content_type: contentType, size: content.length, updated_at: new Date().toISOString() };
      return updateRow(tx, 'departments', account.id, id, data);
    });
    return respond(c, presentDepartment(row, c), { root: 'department' });
  });

  app.get('/:id/logo', async (c) => {
    const id = idParam(c);
    const account = c.get('account');
    await requireRow(c.get('db'), 'departments', account.id, id);
    const logo = await departmentLogo(c.get('db'), account.id, id);
    if (!logo) throw new ApiError(404, 'Not found');
    return c.body(logo.content.buffer.slice(logo.content.byteOffset, logo.content.byteOffset + logo.content.byteLength) as ArrayBuffer, 200, { 'content-type': logo.contentType, 'cache-control': 'private, max-age=300' });
  });
}
