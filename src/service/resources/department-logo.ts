import type { Hono } from 'hono';
import { departmentInput } from '../../api/schemas/account.js';
import type { DepartmentData } from '../accounts.js';
import { departmentLogo } from '../data/department-logos.js';
import { ApiError, idParam, invalidField, respond, type ServiceEnv, validate } from '../http.js';
import { requireRow, updateRow } from '../store.js';
import { imageSize, MAX_LOGO_PIXELS, MAX_LOGO_SIDE } from '../documents/image-size.js';
import { merge } from './crud.js';
import { presentDepartment } from './departments.js';

const MAX_LOGO_BYTES = 2 * 1024 * 1024;

/** The image type by its first bytes, never by the file name or the declared type. */
export function imageType(bytes: Uint8Array): 'image/png' | 'image/jpeg' | undefined {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return undefined;
}

/**
 * `PUT /departments/<id>.json` as multipart with `api_token` and `department[logo]` (spec §4.9):
 * a PNG or JPEG of at most 2 MiB. Other `department[...]` fields in the same form are applied too.
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
    const content = new Uint8Array(await logo.arrayBuffer());
    const contentType = imageType(content);
    if (!contentType) throw invalidField('department.logo', 'must be a PNG or JPEG image');
    // Checked by what it decodes to, not by its file size: a small PNG can unpack to gigabytes.
    const size = imageSize(content);
    if (!size || size.width === 0 || size.height === 0) throw invalidField('department.logo', 'is not a readable PNG or JPEG image');
    if (size.width > MAX_LOGO_SIDE || size.height > MAX_LOGO_SIDE || size.width * size.height > MAX_LOGO_PIXELS) {
      throw invalidField('department.logo', `is ${size.width} × ${size.height} pixels: at most ${MAX_LOGO_SIDE} × ${MAX_LOGO_SIDE} are accepted`);
    }
    const changes = validate(departmentInput, fields, 'department');
    const row = await c.get('db').transaction(async (tx) => {
      const current = await requireRow<DepartmentData>(tx, 'departments', account.id, id, { forUpdate: true });
      await tx.query(
        `insert into department_logos (department_id, account_id, content_type, content, updated_at) values ($1, $2, $3, $4, now())
         on conflict (department_id) do update set content_type = excluded.content_type, content = excluded.content, updated_at = now()`,
        [id, account.id, contentType, Buffer.from(content)],
      );
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
