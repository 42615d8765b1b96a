import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * The person of a grant or revoke command (issue 41 item 3), under the command's sequence number:
 * the workflow input carries the number, never the address. Written and read by
 * db/repositories/access/command-seq.ts only; covered by the person's export and erasure, and
 * deleted after a few days by the hourly cleanup.
 */
export const AccessCommandPerson = defineEntity({
  name: 'AccessCommandPerson',
  tableName: 'access_command_people',
  indexes: [
    { name: 'access_command_people_person_index', expression: 'create index "access_command_people_person_index" on "access_command_people" ("platform_id", lower("email"))' },
    { name: 'access_command_people_created_at_index', properties: ['createdAt'] },
  ],
  properties: {
    /** Taken from `access_command_seq` by the insert (the access commands' order). */
    seq: p.bigint('number').primary().autoincrement(false),
    platformId: p.uuid(),
    email: p.text(),
    name: p.text().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type IAccessCommandPerson = InferEntity<typeof AccessCommandPerson>;
