import { Migration } from '@mikro-orm/migrations';

export class Migration20261122032912_Webhooks extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "quiz_results" ("id" uuid not null, "platform_id" uuid not null, "participant_id" uuid not null, "course_id" uuid not null, "lesson_id" uuid not null, "quiz_id" varchar(255) not null, "score" double precision not null, "passed" boolean not null, "recorded_at" timestamptz not null, constraint "quiz_results_pkey" primary key ("id"));`);
    this.addSql(`create index "quiz_results_platform_id_participant_id_index" on "quiz_results" ("platform_id", "participant_id");`);

    this.addSql(`create table "webhooks" ("id" uuid not null, "platform_id" uuid not null, "name" varchar(255) not null, "url" text not null, "events" text[] not null, "active" boolean not null default true, "secret_sealed" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "deleted_at" timestamptz null, constraint "webhooks_pkey" primary key ("id"));`);
    this.addSql(`create index "webhooks_platform_id_created_at_index" on "webhooks" ("platform_id", "created_at");`);

    this.addSql(`create table "webhook_deliveries" ("id" uuid not null, "platform_id" uuid not null, "webhook_id" uuid not null, "event_id" uuid not null, "event_type" varchar(255) not null, "status" varchar(255) not null default 'pending', "attempt_count" int not null default 0, "redeliveries" int not null default 0, "next_attempt_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "webhook_deliveries_pkey" primary key ("id"));`);
    this.addSql(`create index "webhook_deliveries_webhook_id_created_at_index" on "webhook_deliveries" ("webhook_id", "created_at");`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_webhook_id_event_id_unique" unique ("webhook_id", "event_id");`);

    this.addSql(`create table "webhook_delivery_attempts" ("id" uuid not null, "platform_id" uuid not null, "delivery_id" uuid not null, "attempted_at" timestamptz not null, "status_code" smallint null, "duration_ms" int not null, "error" text null, "manual" boolean not null default false, constraint "webhook_delivery_attempts_pkey" primary key ("id"));`);
    this.addSql(`create index "webhook_delivery_attempts_delivery_id_attempted_at_index" on "webhook_delivery_attempts" ("delivery_id", "attempted_at");`);

    this.addSql(`alter table "quiz_results" add constraint "quiz_results_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);
    this.addSql(`alter table "quiz_results" add constraint "quiz_results_participant_id_foreign" foreign key ("participant_id") references "participants" ("id") on update cascade;`);
    this.addSql(`alter table "quiz_results" add constraint "quiz_results_course_id_foreign" foreign key ("course_id") references "courses" ("id") on update cascade;`);
    this.addSql(`alter table "quiz_results" add constraint "quiz_results_lesson_id_foreign" foreign key ("lesson_id") references "lessons" ("id") on update cascade;`);

    this.addSql(`alter table "webhooks" add constraint "webhooks_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);

    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_webhook_id_foreign" foreign key ("webhook_id") references "webhooks" ("id") on update cascade;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_event_id_foreign" foreign key ("event_id") references "domain_events" ("id") on update cascade;`);

    this.addSql(`alter table "webhook_delivery_attempts" add constraint "webhook_delivery_attempts_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);
    this.addSql(`alter table "webhook_delivery_attempts" add constraint "webhook_delivery_attempts_delivery_id_foreign" foreign key ("delivery_id") references "webhook_deliveries" ("id") on update cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_webhook_id_foreign";`);

    this.addSql(`alter table "webhook_delivery_attempts" drop constraint "webhook_delivery_attempts_delivery_id_foreign";`);

    this.addSql(`drop table if exists "quiz_results" cascade;`);

    this.addSql(`drop table if exists "webhooks" cascade;`);

    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);

    this.addSql(`drop table if exists "webhook_delivery_attempts" cascade;`);
  }

}
