/**
 * Tenant scoping. Every tenant-owned entity carries this filter, enabled by default and
 * parameterised by the platform id. A query made without `em.setFilterParams(TENANT_FILTER, ...)`
 * fails loudly instead of silently reading every tenant's rows.
 */
export const TENANT_FILTER = 'tenant';

export interface TenantParams {
  platformId: string;
}

export const tenantFilters = {
  [TENANT_FILTER]: {
    name: TENANT_FILTER,
    cond: (args: TenantParams) => ({ platform: args.platformId }),
    default: true,
  },
};

/** The shop tenant: every shop-owned entity is filtered by shop the same way. */
export const SHOP_FILTER = 'shop';

export interface ShopTenantParams {
  shopId: string;
}

export const shopFilters = {
  [SHOP_FILTER]: {
    name: SHOP_FILTER,
    cond: (args: ShopTenantParams) => ({ shop: args.shopId }),
    default: true,
  },
};
