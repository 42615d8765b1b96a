import type { PersonalDataTenant } from '../../../../domain/shared/personal-data.ts';
import type { PersonalDataEntry } from './context.ts';
import { PLATFORM_PERSONAL_DATA } from './platform-entries.ts';
import { SHOP_PERSONAL_DATA } from './shop-entries.ts';

/**
 * Every kind of personal data each tenant holds, one entry per kind (issue 29): the export shows
 * each entry's rows under its kind, the erasure runs each entry as one step. A table that starts
 * to hold a person's data is one more entry here (the "nothing comes back" test searches every
 * table of the database and fails until it has one).
 */
export const PERSONAL_DATA: Record<PersonalDataTenant, readonly PersonalDataEntry[]> = {
  shop: SHOP_PERSONAL_DATA,
  platform: PLATFORM_PERSONAL_DATA,
};

export function personalDataEntry(tenant: PersonalDataTenant, kind: string): PersonalDataEntry | undefined {
  return PERSONAL_DATA[tenant].find((e) => e.kind === kind);
}

export const personalDataKinds = (tenant: PersonalDataTenant): string[] => PERSONAL_DATA[tenant].map((e) => e.kind);
