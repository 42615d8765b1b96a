import { Migration } from '@mikro-orm/migrations';

export class Migration20261122030256_Initial extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "platforms" ("id" uuid not null, "subdomain" varchar(63) not null, "title" varchar(255) not null, "admin_email" varchar(255) null, "allowed_domains" text[] not null default '{}', "created_at" timestamptz not null, constraint "platforms_pkey" primary key ("id"));`);
    this.addSql(`alter table "platforms" add constraint "platforms_subdomain_unique" unique ("subdomain");`);

    this.addSql(`create table "participants" ("id" uuid not null, "platform_id" uuid not null, "email" varchar(255) not null, "name" varchar(255) null, "invited_at" timestamptz null, "login_token_hash" varchar(64) null, "created_at" timestamptz not null, constraint "participants_pkey" primary key ("id"));`);
    this.addSql(`alter table "participants" add constraint "participants_platform_id_email_unique" unique ("platform_id", "email");`);

    this.addSql(`create table "mail_log" ("id" uuid not null, "platform_id" uuid not null, "to" varchar(255) not null, "template" varchar(255) not null, "subject" varchar(255) not null, "html" text not null, "dedupe_key" varchar(255) not null, "sent_at" timestamptz not null, constraint "mail_log_pkey" primary key ("id"));`);
    this.addSql(`create index "mail_log_platform_id_to_index" on "mail_log" ("platform_id", "to");`);
    this.addSql(`alter table "mail_log" add constraint "mail_log_platform_id_dedupe_key_unique" unique ("platform_id", "dedupe_key");`);

    this.addSql(`create table "courses" ("id" uuid not null, "platform_id" uuid not null, "slug" varchar(255) not null, "title" varchar(255) not null, "active" boolean not null default true, "created_at" timestamptz not null, constraint "courses_pkey" primary key ("id"));`);
    this.addSql(`alter table "courses" add constraint "courses_platform_id_slug_unique" unique ("platform_id", "slug");`);

    this.addSql(`create table "enrolments" ("id" uuid not null, "platform_id" uuid not null, "participant_id" uuid not null, "course_id" uuid not null, "access_level" smallint not null default 0, "active" boolean not null default true, "started_at" timestamptz not null, "viewed_at" timestamptz null, "updated_at" timestamptz not null, constraint "enrolments_pkey" primary key ("id"));`);
    this.addSql(`create index "enrolments_course_id_index" on "enrolments" ("course_id");`);
    this.addSql(`alter table "enrolments" add constraint "enrolments_participant_id_course_id_unique" unique ("participant_id", "course_id");`);

    this.addSql(`create table "audiobooks" ("id" uuid not null, "platform_id" uuid not null, "title" varchar(255) not null, "active" boolean not null default true, "created_at" timestamptz not null, constraint "audiobooks_pkey" primary key ("id"));`);
    this.addSql(`create index "audiobooks_platform_id_title_index" on "audiobooks" ("platform_id", "title");`);

    this.addSql(`create table "audiobook_accesses" ("id" uuid not null, "platform_id" uuid not null, "participant_id" uuid not null, "audiobook_id" uuid not null, "active" boolean not null default true, "granted_at" timestamptz not null, constraint "audiobook_accesses_pkey" primary key ("id"));`);
    this.addSql(`create index "audiobook_accesses_audiobook_id_index" on "audiobook_accesses" ("audiobook_id");`);
    this.addSql(`alter table "audiobook_accesses" add constraint "audiobook_accesses_participant_id_audiobook_id_unique" unique ("participant_id", "audiobook_id");`);

    this.addSql(`create table "platform_api_keys" ("id" uuid not null, "platform_id" uuid not null, "prefix" varchar(16) not null, "key_hash" varchar(64) not null, "created_at" timestamptz not null, "revoked_at" timestamptz null, constraint "platform_api_keys_pkey" primary key ("id"));`);
    this.addSql(`alter table "platform_api_keys" add constraint "platform_api_keys_key_hash_unique" unique ("key_hash");`);
    this.addSql(`create index "platform_api_keys_platform_id_index" on "platform_api_keys" ("platform_id");`);

    this.addSql(`create table "sections" ("id" uuid not null, "platform_id" uuid not null, "course_id" uuid not null, "title" varchar(255) not null, "access_level" smallint not null default 0, "position" int not null, constraint "sections_pkey" primary key ("id"));`);
    this.addSql(`create index "sections_course_id_position_index" on "sections" ("course_id", "position");`);

    this.addSql(`create table "lessons" ("id" uuid not null, "platform_id" uuid not null, "section_id" uuid not null, "title" varchar(255) not null, "position" int not null, constraint "lessons_pkey" primary key ("id"));`);
    this.addSql(`create index "lessons_section_id_position_index" on "lessons" ("section_id", "position");`);

    this.addSql(`alter table "participants" add constraint "participants_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);

    this.addSql(`alter table "mail_log" add constraint "mail_log_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);

    this.addSql(`alter table "courses" add constraint "courses_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);

    this.addSql(`alter table "enrolments" add constraint "enrolments_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);
    this.addSql(`alter table "enrolments" add constraint "enrolments_participant_id_foreign" foreign key ("participant_id") references "participants" ("id") on update cascade;`);
    this.addSql(`alter table "enrolments" add constraint "enrolments_course_id_foreign" foreign key ("course_id") references "courses" ("id") on update cascade;`);

    this.addSql(`alter table "audiobooks" add constraint "audiobooks_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);

    this.addSql(`alter table "audiobook_accesses" add constraint "audiobook_accesses_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);
    this.addSql(`alter table "audiobook_accesses" add constraint "audiobook_accesses_participant_id_foreign" foreign key ("participant_id") references "participants" ("id") on update cascade;`);
    this.addSql(`alter table "audiobook_accesses" add constraint "audiobook_accesses_audiobook_id_foreign" foreign key ("audiobook_id") references "audiobooks" ("id") on update cascade;`);

    this.addSql(`alter table "platform_api_keys" add constraint "platform_api_keys_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);

    this.addSql(`alter table "sections" add constraint "sections_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);
    this.addSql(`alter table "sections" add constraint "sections_course_id_foreign" foreign key ("course_id") references "courses" ("id") on update cascade;`);

    this.addSql(`alter table "lessons" add constraint "lessons_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);
    this.addSql(`alter table "lessons" add constraint "lessons_section_id_foreign" foreign key ("section_id") references "sections" ("id") on update cascade;`);
  }

}
