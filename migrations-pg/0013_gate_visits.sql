CREATE TABLE "gate_visits" (
	"id" text PRIMARY KEY NOT NULL,
	"truck_plate" text NOT NULL,
	"carrier" text NOT NULL,
	"carrier_key" text NOT NULL,
	"driver_name" text,
	"appointment_at" bigint,
	"entered_at" bigint NOT NULL,
	"exited_at" bigint,
	"dropped_trailer_id" text,
	"dropped_trailer_key" text,
	"picked_trailer_id" text,
	"picked_trailer_key" text,
	"entry_seal" text,
	"exit_seal" text,
	"seal_mismatch" boolean DEFAULT false NOT NULL,
	"entered_by" text,
	"exited_by" text
);
--> statement-breakpoint
ALTER TABLE "gate_visits" ADD CONSTRAINT "gate_visits_entered_by_users_id_fk" FOREIGN KEY ("entered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gate_visits" ADD CONSTRAINT "gate_visits_exited_by_users_id_fk" FOREIGN KEY ("exited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gate_visits_entered" ON "gate_visits" USING btree ("entered_at");--> statement-breakpoint
CREATE INDEX "gate_visits_exited" ON "gate_visits" USING btree ("exited_at");--> statement-breakpoint
CREATE INDEX "gate_visits_dropped" ON "gate_visits" USING btree ("dropped_trailer_key","entered_at");--> statement-breakpoint
CREATE INDEX "gate_visits_picked" ON "gate_visits" USING btree ("picked_trailer_key","exited_at");