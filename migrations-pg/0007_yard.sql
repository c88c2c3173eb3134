CREATE TABLE "locations" (
	"id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"kind" text NOT NULL,
	"zone" text NOT NULL,
	"capacity" integer DEFAULT 1 NOT NULL,
	"x" integer DEFAULT 0 NOT NULL,
	"y" integer DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"deactivated_at" bigint
);
--> statement-breakpoint
CREATE TABLE "trailer_positions" (
	"trailer_id" text PRIMARY KEY NOT NULL,
	"location_id" text,
	"since" bigint NOT NULL,
	"task_id" text,
	"left_at" bigint
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "origin_location_id" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "destination_location_id" text;--> statement-breakpoint
ALTER TABLE "trailer_positions" ADD CONSTRAINT "trailer_positions_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "locations_code" ON "locations" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "locations_name_live" ON "locations" USING btree ("name_key") WHERE deactivated_at IS NULL;--> statement-breakpoint
CREATE INDEX "trailer_positions_location" ON "trailer_positions" USING btree ("location_id");--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_origin_location_id_locations_id_fk" FOREIGN KEY ("origin_location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_destination_location_id_locations_id_fk" FOREIGN KEY ("destination_location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tasks_incoming" ON "tasks" USING btree ("destination_location_id") WHERE status IN ('bolsa_trabajo', 'en_proceso') AND deleted_at IS NULL;