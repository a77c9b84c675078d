import { department, departmentList, type Department } from '../schemas/account.js';
import type { CallOptions, Transport } from '../transport.js';
import { idSegment, type Id } from './shared.js';

export interface DepartmentsApi {
  /** The account's departments (seller entities); the default one has `main: true`. */
  list(options?: CallOptions): Promise<Department[]>;
  /** Uploads a PNG or JPEG logo (§4.9); it appears on the department's invoice PDFs. */
  setLogo(id: Id, file: Blob, filename?: string, options?: CallOptions): Promise<Department>;
}

/** The department operations of spec §4.9. */
export function departmentsApi(transport: Transport): DepartmentsApi {
  return {
    list: async (options) => transport.request({ method: 'GET', path: 'departments' }, departmentList, options),
    setLogo: async (id, file, filename, options) => {
      const form = new FormData();
      form.append('department[logo]', file, filename ?? ((file as { name?: unknown }).name as string | undefined) ?? 'logo');
      return transport.request({ method: 'PUT', path: `departments/${idSegment(id)}`, form }, department, options);
    },
  };
}
