-- CONTRACT §23: a key belongs to its principal and fingerprints its request. The keys kept so far (24 h at
-- most) have no fingerprint to compare a repeat with: they are dropped, and a repeat of one runs again.
DROP TABLE "idempotency_keys";--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"principal" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"status" integer NOT NULL,
	"body" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "idempotency_keys_principal_key_pk" PRIMARY KEY("principal","key")
);
--> statement-breakpoint
CREATE INDEX "idempotency_created" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "idempotency_principal" ON "idempotency_keys" USING btree ("principal","created_at");
