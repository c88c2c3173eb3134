DROP INDEX "api_clients_name";--> statement-breakpoint
ALTER TABLE "api_clients" ADD COLUMN "revoked_at" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "api_clients_name" ON "api_clients" USING btree ("name_key") WHERE revoked_at IS NULL;