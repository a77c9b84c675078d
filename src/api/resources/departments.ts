import { department, departmentList, type Department, type DepartmentInput } from '../schemas/account.js';
import { successBody, type SuccessBody } from '../schemas/common.js';
import type { CallOptions, Transport } from '../transport.js';
import { idSegment, type Id } from './shared.js';

export interface DepartmentsApi {
  /** The account's departments (seller entities); the default one has `main: true`. */
  list(options?: CallOptions): Promise<Department[]>;
  get(id: Id, options?: CallOptions): Promise<Department>;
  create(input: DepartmentInput, options?: CallOptions): Promise<Department>;
  update(id: Id, input: DepartmentInput, options?: CallOptions): Promise<Department>;
  /** The default department (`main: true`) cannot be deleted. */
  delete(id: Id, options?: CallOptions): Promise<SuccessBody>;
  /** Uploads a PNG or JPEG logo (§4.9); it appears on the department's invoice PDFs. */
  setLogo(id: Id, file: Blob, filename?: string, options?: CallOptions): Promise<Department>;
}

/** The department operations of spec §4.9, and their full CRUD. */
export function departmentsApi(transport: Transport): DepartmentsApi {
  return {
    list: async (options) => transport.request({ method: 'GET', path: 'departments' }, departmentList, options),
    get: async (id, options) => transport.request({ method: 'GET', path: `departments/${idSegment(id)}` }, department, options),
    create: async (input, options) => transport.request({ method: 'POST', path: 'departments', body: { department: input } }, department, options),
    update: async (id, input, options) =>
      transport.request({ method: 'PUT', path: `departments/${idSegment(id)}`, body: { department: input } }, department, options),
    delete: async (id, options) => transport.request({ method: 'DELETE', path: `departments/${idSegment(id)}` }, successBody, options),
    setLogo: async (id, file, filename, options) => {
      const form = new FormData();
      form.append('department[logo]', file, filename ?? ((file as { name?: unknown }).name as string | undefined) ?? 'logo');
      return transport.request({ method: 'PUT', path: `departments/${idSegment(id)}`, form }, department, options);
    },
  };
}
