CREATE TABLE "trailer_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"trailer_key" text NOT NULL,
	"kind" text NOT NULL,
	"location_id" text,
	"note" text,
	"actor_id" text,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trailers" (
	"trailer_key" text PRIMARY KEY NOT NULL,
	"trailer_id" text NOT NULL,
	"kind" text DEFAULT 'otro' NOT NULL,
	"load_state" text DEFAULT 'desconocido' NOT NULL,
	"carrier" text,
	"seal" text,
	"reference" text,
	"adr" boolean DEFAULT false NOT NULL,
	"reefer_setpoint_c" double precision,
	"damaged" boolean DEFAULT false NOT NULL,
	"damage_note" text,
	"notes" text,
	"location_id" text,
	"since" bigint,
	"task_id" text,
	"placed_at" bigint,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "tasks_trailer";--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "trailer_key" text;--> statement-breakpoint
-- By hand from here on (docs/GATE.md › Plate identity): plateKey() of shared/text.ts in SQL, for the rows
-- that exist. Their trailer_id is stored NFKC and upper-cased already (§14): accents, spaces, dots and
-- dashes are what is left to fold.
CREATE OR REPLACE FUNCTION torre_plate_key(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT upper(regexp_replace(public.unaccent('public.unaccent'::regdictionary, $1), '[-[:space:].‐‑‒–—―⸗⸚⸺⸻⹀〜〰゠֊־᐀᠆]', '', 'g')) $$;--> statement-breakpoint
UPDATE "tasks" SET "trailer_key" = torre_plate_key("trailer_id");--> statement-breakpoint
ALTER TABLE "tasks" ALTER COLUMN "trailer_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "trailer_events" ADD CONSTRAINT "trailer_events_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trailer_events" ADD CONSTRAINT "trailer_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trailers" ADD CONSTRAINT "trailers_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trailer_events_trailer" ON "trailer_events" USING btree ("trailer_key","at");--> statement-breakpoint
CREATE INDEX "trailers_location" ON "trailers" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "tasks_open_trailer_key" ON "tasks" USING btree ("trailer_key") WHERE status IN ('bolsa_trabajo', 'en_proceso') AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tasks_trailer" ON "tasks" USING btree ("trailer_key","completed_at");--> statement-breakpoint
-- A record for every trailer seen (a task or a position): its first spelling is its oldest task's; where
-- it stands moves over from trailer_positions, the later of two positions that are one trailer winning
-- (a position marked gone counts from its left_at). Two open tasks that became one trailer both stay.
INSERT INTO "trailers" ("trailer_key", "trailer_id", "location_id", "since", "task_id", "placed_at", "created_at", "updated_at")
SELECT k."trailer_key",
  coalesce((SELECT t."trailer_id" FROM "tasks" t WHERE t."trailer_key" = k."trailer_key" ORDER BY t."created_at", t."id" LIMIT 1), p."trailer_id"),
  p."location_id",
  CASE WHEN p."location_id" IS NULL THEN NULL ELSE p."since" END,
  p."task_id",
  p."left_at",
  coalesce((SELECT min(t."created_at") FROM "tasks" t WHERE t."trailer_key" = k."trailer_key"), p."since"),
  coalesce((SELECT min(t."created_at") FROM "tasks" t WHERE t."trailer_key" = k."trailer_key"), p."since")
FROM (SELECT "trailer_key" FROM "tasks" UNION SELECT torre_plate_key("trailer_id") FROM "trailer_positions") k
LEFT JOIN (
  SELECT torre_plate_key("trailer_id") AS "trailer_key", "trailer_id", "location_id", "since", "task_id", "left_at",
    ROW_NUMBER() OVER (PARTITION BY torre_plate_key("trailer_id") ORDER BY greatest("since", coalesce("left_at", 0)) DESC) AS n
  FROM "trailer_positions"
) p ON p."trailer_key" = k."trailer_key" AND p.n = 1;--> statement-breakpoint
-- The searcher matches a plate by its key (server/services/search-postgres.ts): a trigram index on it,
-- where torre_fold(trailer_id)'s was.
DROP INDEX IF EXISTS tasks_fold_trailer;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS tasks_key_trailer ON tasks USING gin (trailer_key gin_trgm_ops);
