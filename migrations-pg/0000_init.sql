-- Added by hand: what issue 16 needs later (accent-insensitive search, trigram indexes).
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "activity_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"user_id" text,
	"user_name" text NOT NULL,
	"action" text NOT NULL,
	"details" text NOT NULL,
	"timestamp" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"key" text NOT NULL,
	"status" integer NOT NULL,
	"body" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_method_path_key_pk" PRIMARY KEY("user_id","method","path","key")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"task_id" text,
	"subject_user_id" text,
	"is_read" boolean DEFAULT false NOT NULL,
	"play_sound" boolean DEFAULT false NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "presence_intervals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"started_at" bigint NOT NULL,
	"ended_at" bigint
);
--> statement-breakpoint
CREATE TABLE "punch_corrections" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"punch_id" text NOT NULL,
	"action" text NOT NULL,
	"reason" text NOT NULL,
	"actor_id" text NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "punches" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"clock_type" text NOT NULL,
	"timestamp" bigint NOT NULL,
	"offline" boolean DEFAULT false NOT NULL,
	"corrected" boolean DEFAULT false NOT NULL,
	"deleted_at" bigint
);
--> statement-breakpoint
CREATE TABLE "push_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"created_at" bigint NOT NULL,
	"refreshed_at" bigint NOT NULL,
	"ip" text,
	"user_agent" text,
	"ended_at" bigint
);
--> statement-breakpoint
CREATE TABLE "task_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"task_id" text NOT NULL,
	"type" text NOT NULL,
	"actor_id" text,
	"driver_id" text,
	"from_status" text,
	"to_status" text,
	"reason" text,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"origin" text NOT NULL,
	"destination" text NOT NULL,
	"trailer_id" text NOT NULL,
	"priority" text DEFAULT 'normal' NOT NULL,
	"status" text DEFAULT 'bolsa_trabajo' NOT NULL,
	"vehicle_type" text DEFAULT 'semiremolque' NOT NULL,
	"assigned_to" text,
	"created_by" text,
	"credited_to" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"assigned_at" bigint,
	"completed_at" bigint,
	"status_since" bigint NOT NULL,
	"return_reason" text,
	"returned_by" text,
	"returned_at" bigint,
	"no_drivers_available" boolean,
	"on_hold" boolean DEFAULT false NOT NULL,
	"hold_reason" text,
	"last_return_reason" text,
	"version" integer DEFAULT 1 NOT NULL,
	"deleted_at" bigint
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text NOT NULL,
	"is_approved" boolean DEFAULT false NOT NULL,
	"is_online" boolean DEFAULT false NOT NULL,
	"task_types" text DEFAULT '[]' NOT NULL,
	"movements_count" integer DEFAULT 0 NOT NULL,
	"token_version" integer DEFAULT 0 NOT NULL,
	"must_change_password" boolean DEFAULT false NOT NULL,
	"idle_since" bigint,
	"last_activity_at" bigint,
	"created_at" bigint NOT NULL,
	"approved_at" bigint,
	"deleted_at" bigint
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "presence_intervals" ADD CONSTRAINT "presence_intervals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "punch_corrections" ADD CONSTRAINT "punch_corrections_punch_id_punches_id_fk" FOREIGN KEY ("punch_id") REFERENCES "public"."punches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "punch_corrections" ADD CONSTRAINT "punch_corrections_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "punches" ADD CONSTRAINT "punches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_events" ADD CONSTRAINT "task_events_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_events" ADD CONSTRAINT "task_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_events" ADD CONSTRAINT "task_events_driver_id_users_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_assigned_to_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_credited_to_users_id_fk" FOREIGN KEY ("credited_to") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_returned_by_users_id_fk" FOREIGN KEY ("returned_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_time" ON "activity_log" USING btree ("timestamp");--> statement-breakpoint
CREATE INDEX "idempotency_created" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "notifications_user" ON "notifications" USING btree ("user_id","is_read","created_at");--> statement-breakpoint
CREATE INDEX "presence_user" ON "presence_intervals" USING btree ("user_id","started_at");--> statement-breakpoint
CREATE INDEX "presence_open" ON "presence_intervals" USING btree ("ended_at");--> statement-breakpoint
CREATE INDEX "punch_corrections_punch" ON "punch_corrections" USING btree ("punch_id");--> statement-breakpoint
CREATE INDEX "punches_user" ON "punches" USING btree ("user_id","timestamp");--> statement-breakpoint
CREATE INDEX "punches_time" ON "punches" USING btree ("timestamp");--> statement-breakpoint
CREATE UNIQUE INDEX "push_endpoint" ON "push_subscriptions" USING btree ("endpoint");--> statement-breakpoint
CREATE INDEX "push_user" ON "push_subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_user" ON "sessions" USING btree ("user_id","ended_at");--> statement-breakpoint
CREATE INDEX "task_events_task" ON "task_events" USING btree ("task_id","at");--> statement-breakpoint
CREATE INDEX "task_events_type" ON "task_events" USING btree ("type","at");--> statement-breakpoint
CREATE INDEX "tasks_status" ON "tasks" USING btree ("status","priority","created_at");--> statement-breakpoint
CREATE INDEX "tasks_created" ON "tasks" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "tasks_assigned_at" ON "tasks" USING btree ("assigned_at");--> statement-breakpoint
CREATE INDEX "tasks_completed" ON "tasks" USING btree ("completed_at");--> statement-breakpoint
CREATE INDEX "tasks_trailer" ON "tasks" USING btree ("trailer_id","completed_at");--> statement-breakpoint
CREATE INDEX "tasks_assignee" ON "tasks" USING btree ("assigned_to","status");--> statement-breakpoint
CREATE INDEX "tasks_untried" ON "tasks" USING btree ("created_at") WHERE status = 'bolsa_trabajo' AND deleted_at IS NULL AND no_drivers_available IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_open_trailer" ON "tasks" USING btree ("trailer_id") WHERE status IN ('bolsa_trabajo', 'en_proceso') AND deleted_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_active_driver" ON "tasks" USING btree ("assigned_to") WHERE status = 'en_proceso' AND deleted_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_live" ON "users" USING btree ("email") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "users_role" ON "users" USING btree ("role","is_approved","is_online");