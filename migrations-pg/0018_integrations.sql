CREATE TABLE "api_clients" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"scopes" text NOT NULL,
	"created_by" text,
	"created_by_name" text NOT NULL,
	"created_at" bigint NOT NULL,
	"last_used_at" bigint
);
--> statement-breakpoint
CREATE TABLE "api_rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"webhook_id" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"subject" text NOT NULL,
	"payload" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_status_code" integer,
	"last_error" text,
	"next_attempt_at" bigint,
	"created_at" bigint NOT NULL,
	"delivered_at" bigint
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"description" text,
	"events" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"secret" text NOT NULL,
	"created_by" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"failing_since" bigint,
	"disabled_at" bigint,
	"lease_owner" text,
	"lease_until" bigint
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "external_ref" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "created_by_client_id" text;--> statement-breakpoint
ALTER TABLE "api_clients" ADD CONSTRAINT "api_clients_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_clients_name" ON "api_clients" USING btree ("name_key");--> statement-breakpoint
CREATE UNIQUE INDEX "api_clients_key" ON "api_clients" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_queue" ON "webhook_deliveries" USING btree ("webhook_id","status","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due" ON "webhook_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_created" ON "webhook_deliveries" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "webhooks_active" ON "webhooks" USING btree ("active");--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_created_by_client_id_api_clients_id_fk" FOREIGN KEY ("created_by_client_id") REFERENCES "public"."api_clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_open_external_ref_client" ON "tasks" USING btree ("created_by_client_id","external_ref") WHERE external_ref IS NOT NULL AND created_by_client_id IS NOT NULL AND status IN ('bolsa_trabajo', 'en_proceso') AND deleted_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_open_external_ref_user" ON "tasks" USING btree ("created_by","external_ref") WHERE external_ref IS NOT NULL AND created_by_client_id IS NULL AND status IN ('bolsa_trabajo', 'en_proceso') AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tasks_external_ref" ON "tasks" USING btree ("external_ref") WHERE external_ref IS NOT NULL;