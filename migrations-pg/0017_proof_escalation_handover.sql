CREATE TABLE "handover_notes" (
	"id" text PRIMARY KEY NOT NULL,
	"text" text NOT NULL,
	"author_id" text,
	"author_name" text NOT NULL,
	"shift" text NOT NULL,
	"date" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_escalations" (
	"task_id" text NOT NULL,
	"rule" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "task_escalations_task_id_rule_pk" PRIMARY KEY("task_id","rule")
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "proof" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "dropped_at_location_id" text;--> statement-breakpoint
ALTER TABLE "handover_notes" ADD CONSTRAINT "handover_notes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_escalations" ADD CONSTRAINT "task_escalations_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "handover_notes_shift" ON "handover_notes" USING btree ("date","shift","created_at");--> statement-breakpoint
CREATE INDEX "task_escalations_created" ON "task_escalations" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_dropped_at_location_id_locations_id_fk" FOREIGN KEY ("dropped_at_location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Completions before proof existed: the driver's tap, as a manual completion (CONTRACT §20).
UPDATE "tasks" SET "proof" = 'manual' WHERE "status" = 'finalizada';
