import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * What a sandbox twin copies from its platform: the catalogue and how it looks and mails. Each
 * table's rows get new ids; `refs` are columns pointing at rows copied before (in this order), so
 * they are mapped to the copies. Participants, orders, progress, keys, webhooks and the mail
 * delivery provider are not copied: the twin starts empty of people and sends mail nowhere.
 */
const COPIED: { table: string; columns: string[]; refs?: string[] }[] = [
  { table: 'courses', columns: ['slug', 'title', 'active', 'created_at'] },
  { table: 'sections', columns: ['title', 'access_level', 'position'], refs: ['course_id'] },
  { table: 'lessons', columns: ['title', 'position'], refs: ['section_id'] },
  { table: 'audiobooks', columns: ['title', 'active', 'created_at'] },
  { table: 'platform_appearances', columns: ['settings', 'welcome', 'updated_at'] },
  { table: 'platform_mail_templates', columns: ['slug', 'subject', 'description', 'sender_name', 'sender_email', 'updated_at'] },
  {
    table: 'course_mail_templates',
    columns: ['slug', 'name', 'subject', 'description', 'sender_name', 'sender_email', 'active', 'send_after', 'notify_previous_users', 'customized', 'created_at', 'updated_at'],
    refs: ['course_id', 'send_after_lesson_id'],
  },
];

/** Copies the platform's catalogue, appearance and templates into `twinId`, in the caller's transaction. */
export async function copyIntoTwin(tx: EntityManager, sourceId: string, twinId: string): Promise<void> {
  await tx.execute(`create temporary table sandbox_ids (old_id uuid primary key, new_id uuid not null) on commit drop`);
  for (const { table, columns, refs = [] } of COPIED) {
    await tx.execute(`insert into sandbox_ids select id, gen_random_uuid() from ${table} where platform_id = ?`, [sourceId]);
    const mapped = refs.map((ref) => `(select new_id from sandbox_ids where old_id = t.${ref})`);
    await tx.execute(
      `insert into ${table} (id, platform_id, ${[...refs, ...columns].join(', ')})
       select ids.new_id, ?, ${[...mapped, ...columns.map((c) => `t.${c}`)].join(', ')}
         from ${table} t join sandbox_ids ids on ids.old_id = t.id
        where t.platform_id = ?`,
      [twinId, sourceId],
    );
  }
}

/** The twin's courses, each with the platform's course it was copied from (the slug is kept). */
export async function twinCourses(em: EntityManager, twinId: string, sourceId: string): Promise<{ id: string; source_id: string | null; slug: string }[]> {
  return em.execute(
    `select t.id, s.id as source_id, t.slug
       from courses t left join courses s on s.platform_id = ? and s.slug = t.slug
      where t.platform_id = ? order by t.created_at, t.id`,
    [sourceId, twinId],
  );
}
