/** An account as the service's code sees it: whose records a request reads and writes. */
export interface Account {
  id: number;
  prefix: string;
  api_token: string;
  name: string | null;
  created_at: Date;
}
