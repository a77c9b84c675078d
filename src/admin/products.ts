/** The product as the API answers it (`/products.json`), as far as the back office reads it. */
export interface AdminProduct {
  id: number;
  name: string;
  code: string | null;
  description: string | null;
  price_net: string;
  price_gross: string;
  tax: string;
  currency: string;
  quantity_unit: string | null;
  service: boolean;
  supply_kind?: 'goods' | 'service' | 'electronic_service';
  token: string;
  created_at: string;
  updated_at: string;
}

/** The department as the API answers it (`/departments.json`), as far as the embed-code builder reads it. */
export interface AdminDepartment {
  id: number;
  name: string;
  main: boolean;
  widget_origins: string[];
}
