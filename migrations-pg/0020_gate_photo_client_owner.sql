ALTER TABLE "gate_photos" ALTER COLUMN "owner_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "gate_photos" ADD COLUMN "owner_client_id" text;--> statement-breakpoint
ALTER TABLE "gate_photos" ADD CONSTRAINT "gate_photos_owner_client_id_api_clients_id_fk" FOREIGN KEY ("owner_client_id") REFERENCES "public"."api_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gate_photos_owner_client" ON "gate_photos" USING btree ("owner_client_id");--> statement-breakpoint
ALTER TABLE "gate_photos" ADD CONSTRAINT "gate_photos_one_owner" CHECK ((owner_id IS NULL) <> (owner_client_id IS NULL));