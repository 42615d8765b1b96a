import { Migration } from '@mikro-orm/migrations';

export class Migration20261122032036_ConfigurationInterface extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "configuration_keys" ("id" uuid not null, "platform_id" uuid not null, "name" varchar(255) not null, "prefix" varchar(16) not null, "key_hash" varchar(64) not null, "scopes" text[] not null, "expires_at" timestamptz null, "created_at" timestamptz not null, "revoked_at" timestamptz null, constraint "configuration_keys_pkey" primary key ("id"));`);
    this.addSql(`alter table "configuration_keys" add constraint "configuration_keys_key_hash_unique" unique ("key_hash");`);
    this.addSql(`create index "configuration_keys_platform_id_index" on "configuration_keys" ("platform_id");`);

    this.addSql(`create table "audit_log" ("id" uuid not null, "platform_id" uuid not null, "at" timestamptz not null, "method" varchar(10) not null, "path" text not null, "status" smallint not null, "key_prefix" varchar(16) null, constraint "audit_log_pkey" primary key ("id"));`);
    this.addSql(`create index "audit_log_platform_id_at_index" on "audit_log" ("platform_id", "at");`);

    this.addSql(`create table "platform_appearances" ("id" uuid not null, "platform_id" uuid not null, "settings" jsonb not null, "welcome" jsonb not null, "updated_at" timestamptz not null, constraint "platform_appearances_pkey" primary key ("id"));`);
    this.addSql(`alter table "platform_appearances" add constraint "platform_appearances_platform_id_unique" unique ("platform_id");`);

    this.addSql(`create table "platform_mail_templates" ("id" uuid not null, "platform_id" uuid not null, "slug" varchar(64) not null, "subject" varchar(255) not null, "description" text not null, "sender_name" varchar(255) null, "sender_email" varchar(255) null, "updated_at" timestamptz not null, constraint "platform_mail_templates_pkey" primary key ("id"));`);
    this.addSql(`alter table "platform_mail_templates" add constraint "platform_mail_templates_platform_id_slug_unique" unique ("platform_id", "slug");`);

    this.addSql(`create table "lesson_completions" ("id" uuid not null, "platform_id" uuid not null, "participant_id" uuid not null, "lesson_id" uuid not null, "course_id" uuid not null, "completed_at" timestamptz not null, constraint "lesson_completions_pkey" primary key ("id"));`);
    this.addSql(`create index "lesson_completions_lesson_id_index" on "lesson_completions" ("lesson_id");`);
    this.addSql(`alter table "lesson_completions" add constraint "lesson_completions_participant_id_lesson_id_unique" unique ("participant_id", "lesson_id");`);

    this.addSql(`create table "course_mail_templates" ("id" uuid not null, "platform_id" uuid not null, "course_id" uuid not null, "slug" varchar(64) not null, "name" varchar(255) not null, "subject" varchar(255) not null, "description" text not null, "sender_name" varchar(255) null, "sender_email" varchar(255) null, "active" boolean not null default true, "send_after" int null, "send_after_lesson_id" uuid null, "notify_previous_users" boolean not null default false, "customized" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "course_mail_templates_pkey" primary key ("id"));`);
    this.addSql(`create index "course_mail_templates_send_after_lesson_id_index" on "course_mail_templates" ("send_after_lesson_id");`);
    this.addSql(`alter table "course_mail_templates" add constraint "course_mail_templates_course_id_slug_unique" unique ("course_id", "slug");`);

    this.addSql(`create table "stored_files" ("id" uuid not null, "platform_id" uuid not null, "filename" varchar(255) not null, "content_type" varchar(32) not null, "byte_size" int not null, "created_at" timestamptz not null, constraint "stored_files_pkey" primary key ("id"));`);
    this.addSql(`create index "stored_files_platform_id_index" on "stored_files" ("platform_id");`);

    this.addSql(`alter table "configuration_keys" add constraint "configuration_keys_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);

    this.addSql(`alter table "audit_log" add constraint "audit_log_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);

    this.addSql(`alter table "platform_appearances" add constraint "platform_appearances_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);

    this.addSql(`alter table "platform_mail_templates" add constraint "platform_mail_templates_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);

    this.addSql(`alter table "lesson_completions" add constraint "lesson_completions_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);
    this.addSql(`alter table "lesson_completions" add constraint "lesson_completions_participant_id_foreign" foreign key ("participant_id") references "participants" ("id") on update cascade;`);
    this.addSql(`alter table "lesson_completions" add constraint "lesson_completions_lesson_id_foreign" foreign key ("lesson_id") references "lessons" ("id") on update cascade;`);
    this.addSql(`alter table "lesson_completions" add constraint "lesson_completions_course_id_foreign" foreign key ("course_id") references "courses" ("id") on update cascade;`);

    this.addSql(`alter table "course_mail_templates" add constraint "course_mail_templates_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);
    this.addSql(`alter table "course_mail_templates" add constraint "course_mail_templates_course_id_foreign" foreign key ("course_id") references "courses" ("id") on update cascade;`);
    this.addSql(`alter table "course_mail_templates" add constraint "course_mail_templates_send_after_lesson_id_foreign" foreign key ("send_after_lesson_id") references "lessons" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "stored_files" add constraint "stored_files_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "configuration_keys" cascade;`);

    this.addSql(`drop table if exists "audit_log" cascade;`);

    this.addSql(`drop table if exists "platform_appearances" cascade;`);

    this.addSql(`drop table if exists "platform_mail_templates" cascade;`);

    this.addSql(`drop table if exists "lesson_completions" cascade;`);

    this.addSql(`drop table if exists "course_mail_templates" cascade;`);

    this.addSql(`drop table if exists "stored_files" cascade;`);
  }

}
