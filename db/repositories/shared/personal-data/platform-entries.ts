import { ERASED } from '../../../../domain/shared/personal-data.ts';
import { activeOrderFilesOf } from '../../access/order-files.ts';
import { likeEmail, redactRows, rows, type PersonalDataEntry, type PersonContext } from './context.ts';

/**
 * The course platform's kinds of personal data (issue 29), in erasure order: the participant is
 * removed with everything that hangs on it (enrolments, access sources, audiobooks, progress,
 * quiz results), last, so the entries before it still find it; access orders keep their contents
 * with the e-mail replaced; mails, events and the audit log are redacted. Events already
 * delivered stay with their receivers.
 */

const personParticipant = `select id from participants where platform_id = ? and lower(email) = ?`;
const participantParams = (ctx: PersonContext) => [ctx.tenantId, ctx.email];

/** An entry for a table of rows owned by the participant: exported whole (but the tenant), deleted with it. */
function participantRows(kind: string, table: string, orderBy: string): PersonalDataEntry {
  return {
    kind,
    export: (ctx) =>
      rows(ctx, `select to_jsonb(t) - 'platform_id' - 'participant_id' as row from ${table} t where t.platform_id = ? and t.participant_id in (${personParticipant}) order by ${orderBy}`, [
        ctx.tenantId,
        ...participantParams(ctx),
      ]),
    async erase(ctx) {
      const gone: unknown[] = await ctx.em.execute(`delete from ${table} where platform_id = ? and participant_id in (${personParticipant}) returning id`, [ctx.tenantId, ...participantParams(ctx)]);
      return gone.length;
    },
  };
}

const participant: PersonalDataEntry = {
  kind: 'participant',
  export: (ctx) =>
    rows(ctx, `select jsonb_build_object('id', id, 'email', email, 'name', name, 'invited_at', invited_at, 'created_at', created_at) as row from participants where platform_id = ? and lower(email) = ?`, [
      ctx.tenantId,
      ctx.email,
    ]),
  collect: async (ctx) => ((await ctx.em.execute(`select name from participants where platform_id = ? and lower(email) = ?`, participantParams(ctx))) as { name: string | null }[]).map((p) => p.name),
  async erase(ctx) {
    const gone: unknown[] = await ctx.em.execute(`delete from participants where platform_id = ? and lower(email) = ? returning id`, participantParams(ctx));
    return gone.length;
  },
};

const accessOrders: PersonalDataEntry = {
  kind: 'orders',
  export: (ctx) => rows(ctx, `select to_jsonb(o) - 'platform_id' as row from orders o where o.platform_id = ? and lower(o.email) = ? order by o.created_at, o.id`, [ctx.tenantId, ctx.email]),
  /** Kept for the shop or payment system that registered it (contents, dates, status); the e-mail replaced. */
  async erase(ctx) {
    const changed: unknown[] = await ctx.em.execute(`update orders set email = ? where platform_id = ? and lower(email) = ? returning id`, [ctx.marker, ctx.tenantId, ctx.email]);
    const contents = await redactRows(ctx, { table: 'orders', json: ['ordered_contents'], where: `platform_id = ? and email = ?`, params: [ctx.tenantId, ctx.marker] });
    return changed.length + contents;
  },
};

/** The files the person holds through their active orders (as the participant view lists them); erased with the orders they come from. */
const files: PersonalDataEntry = {
  kind: 'files',
  export: (ctx) => activeOrderFilesOf(ctx.em, ctx.tenantId, ctx.email),
  erase: async () => 0,
};

const mails: PersonalDataEntry = {
  kind: 'mails',
  export: (ctx) =>
    rows(ctx, `select jsonb_build_object('to', "to", 'template', template, 'subject', subject, 'html', html, 'status', status, 'sent_at', sent_at) as row from mail_log where platform_id = ? and lower("to") = ? order by sent_at, id`, [
      ctx.tenantId,
      ctx.email,
    ]),
  /** Mails not delivered yet are removed (their delivery finds nothing to send); the rest keep template, status and times, to the marker, subject and body erased. */
  async erase(ctx) {
    const pending: unknown[] = await ctx.em.execute(`delete from mail_log where platform_id = ? and lower("to") = ? and status in ('pending', 'failed') returning id`, [ctx.tenantId, ctx.email]);
    const sent: unknown[] = await ctx.em.execute(
      `update mail_log set "to" = ?, subject = ?, html = ?, last_error = null, dedupe_key = case when dedupe_key is null then null else replace(lower(dedupe_key), ?, ?) end
        where platform_id = ? and lower("to") = ? returning id`,
      [ctx.marker, ERASED, ERASED, ctx.email, ctx.marker, ctx.tenantId, ctx.email],
    );
    const like = likeEmail('html', ctx);
    const copies = await redactRows(ctx, { table: 'mail_log', text: ['subject', 'html'], where: `platform_id = ? and ${like.sql}`, params: [ctx.tenantId, ...like.params] });
    return pending.length + sent.length + copies;
  },
};

const events: PersonalDataEntry = {
  kind: 'events',
  export: (ctx) =>
    rows(ctx, `select jsonb_build_object('id', id, 'type', type, 'occurred_at', occurred_at, 'payload', payload) as row from domain_events where platform_id = ? and lower(payload->'participant'->>'email') = ? order by occurred_at, id`, [
      ctx.tenantId,
      ctx.email,
    ]),
  /** The payload and the operation key (a grant's key holds its workflow id, which holds the address). */
  erase: (ctx) => {
    const payload = likeEmail('payload::text', ctx);
    const key = likeEmail('operation_key', ctx);
    return redactRows(ctx, {
      table: 'domain_events',
      json: ['payload'],
      text: ['operation_key'],
      where: `platform_id = ? and ((payload->'participant'->>'id')::uuid in (${personParticipant}) or ${payload.sql} or ${key.sql})`,
      params: [ctx.tenantId, ...participantParams(ctx), ...payload.params, ...key.params],
    });
  },
};

/** Whom the queued grant and revoke commands are for (kept 7 days; the workflow inputs carry only their number). */
const accessCommands: PersonalDataEntry = {
  kind: 'access_commands',
  export: (ctx) =>
    rows(ctx, `select jsonb_build_object('seq', seq, 'email', email, 'name', name, 'created_at', created_at) as row from access_command_people where platform_id = ? and lower(email) = ? order by seq`, [
      ctx.tenantId,
      ctx.email,
    ]),
  collect: async (ctx) => ((await ctx.em.execute(`select name from access_command_people where platform_id = ? and lower(email) = ?`, [ctx.tenantId, ctx.email])) as { name: string | null }[]).map((p) => p.name),
  async erase(ctx) {
    const gone: unknown[] = await ctx.em.execute(`delete from access_command_people where platform_id = ? and lower(email) = ? returning seq`, [ctx.tenantId, ctx.email]);
    return gone.length;
  },
};

const auditLog: PersonalDataEntry = {
  kind: 'audit_log',
  erase: (ctx) => {
    const like = likeEmail('path', ctx);
    return redactRows(ctx, { table: 'audit_log', text: ['path'], where: `platform_id = ? and ${like.sql}`, params: [ctx.tenantId, ...like.params] });
  },
};

export const PLATFORM_PERSONAL_DATA: readonly PersonalDataEntry[] = [
  participantRows('enrolments', 'enrolments', 't.started_at, t.id'),
  participantRows('access_sources', 'access_sources', 't.created_at, t.id'),
  participantRows('audiobooks', 'audiobook_accesses', 't.granted_at, t.id'),
  participantRows('progress', 'lesson_completions', 't.completed_at, t.id'),
  participantRows('quiz_results', 'quiz_results', 't.recorded_at, t.id'),
  accessOrders,
  files,
  mails,
  events,
  accessCommands,
  auditLog,
  participant,
];
