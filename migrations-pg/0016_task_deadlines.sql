ALTER TABLE "tasks" ADD COLUMN "due_at" bigint;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "late_s" integer;