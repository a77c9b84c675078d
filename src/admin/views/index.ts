/**
 * The back office's routes: a path pattern under `/admin/` (`:name` is a parameter), the view's tag,
 * the module that defines it (loaded on first use) and the navigation entry it belongs to.
 */
export interface AdminRoute {
  pattern: string;
  tag: string;
  load: () => Promise<unknown>;
  nav?: 'overview' | 'products' | 'invoices' | 'customers' | 'settings';
}

export const routes: AdminRoute[] = [
  { pattern: '/admin/', tag: 'ik-admin-overview', load: () => import('./overview.js'), nav: 'overview' },
  { pattern: '/admin/products', tag: 'ik-admin-products', load: () => import('./products.js'), nav: 'products' },
  { pattern: '/admin/products/new', tag: 'ik-admin-product-editor', load: () => import('./product-editor.js'), nav: 'products' },
  { pattern: '/admin/products/:id', tag: 'ik-admin-product-editor', load: () => import('./product-editor.js'), nav: 'products' },
  { pattern: '/admin/products/:id/embed', tag: 'ik-admin-embed-builder', load: () => import('./embed-builder.js'), nav: 'products' },
];

/** The route a path opens and its parameters, or undefined. */
export function matchRoute(path: string, table: readonly AdminRoute[] = routes): { route: AdminRoute; params: Record<string, string> } | undefined {
  const parts = split(path);
  for (const route of table) {
    const pattern = split(route.pattern);
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((segment, index) => {
      const part = parts[index]!;
      if (segment.startsWith(':')) {
        params[segment.slice(1)] = decodeURIComponent(part);
        return true;
      }
      return segment === part;
    });
    if (matches) return { route, params };
  }
  return undefined;
}

function split(path: string): string[] {
  return path.split(/[?#]/)[0]!.split('/').filter((segment) => segment !== '');
}
