CREATE TABLE "gate_photos" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"size" integer NOT NULL,
	"created_at" bigint NOT NULL,
	"attached_at" bigint,
	"attached_to" text
);
--> statement-breakpoint
ALTER TABLE "gate_photos" ADD CONSTRAINT "gate_photos_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gate_photos_owner" ON "gate_photos" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "gate_photos_created" ON "gate_photos" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "gate_photos_attached" ON "gate_photos" USING btree ("attached_at");