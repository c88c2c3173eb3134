CREATE TABLE `trailer_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trailer_key` text NOT NULL,
	`kind` text NOT NULL,
	`location_id` text,
	`note` text,
	`actor_id` text,
	`at` integer NOT NULL,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `trailer_events_trailer` ON `trailer_events` (`trailer_key`,`at`);--> statement-breakpoint
CREATE TABLE `trailers` (
	`trailer_key` text PRIMARY KEY NOT NULL,
	`trailer_id` text NOT NULL,
	`kind` text DEFAULT 'otro' NOT NULL,
	`load_state` text DEFAULT 'desconocido' NOT NULL,
	`carrier` text,
	`seal` text,
	`reference` text,
	`adr` integer DEFAULT false NOT NULL,
	`reefer_setpoint_c` real,
	`damaged` integer DEFAULT false NOT NULL,
	`damage_note` text,
	`notes` text,
	`location_id` text,
	`since` integer,
	`task_id` text,
	`placed_at` integer,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `trailers_location` ON `trailers` (`location_id`);--> statement-breakpoint
DROP INDEX `tasks_trailer`;--> statement-breakpoint
ALTER TABLE `tasks` ADD `trailer_key` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- By hand from here on (docs/GATE.md › Plate identity): every task's plate key, by plate_key(), the very
-- plateKey() of shared/text.ts that server/db/sqlite.ts registers on the connection that migrates.
UPDATE `tasks` SET `trailer_key` = plate_key(`trailer_id`);--> statement-breakpoint
CREATE INDEX `tasks_open_trailer_key` ON `tasks` (`trailer_key`) WHERE status IN ('bolsa_trabajo', 'en_proceso') AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `tasks_trailer` ON `tasks` (`trailer_key`,`completed_at`);--> statement-breakpoint
-- A record for every trailer seen (a task or a position): its first spelling is its oldest task's; where
-- it stands moves over from trailer_positions, the later of two positions that are one trailer winning
-- (a position marked gone counts from its left_at). Two open tasks that became one trailer both stay.
INSERT INTO `trailers` (`trailer_key`, `trailer_id`, `location_id`, `since`, `task_id`, `placed_at`, `created_at`, `updated_at`)
SELECT k.`trailer_key`,
  coalesce((SELECT t.`trailer_id` FROM `tasks` t WHERE t.`trailer_key` = k.`trailer_key` ORDER BY t.`created_at`, t.rowid LIMIT 1), p.`trailer_id`),
  p.`location_id`,
  CASE WHEN p.`location_id` IS NULL THEN NULL ELSE p.`since` END,
  p.`task_id`,
  p.`left_at`,
  coalesce((SELECT min(t.`created_at`) FROM `tasks` t WHERE t.`trailer_key` = k.`trailer_key`), p.`since`),
  coalesce((SELECT min(t.`created_at`) FROM `tasks` t WHERE t.`trailer_key` = k.`trailer_key`), p.`since`)
FROM (SELECT `trailer_key` FROM `tasks` UNION SELECT plate_key(`trailer_id`) FROM `trailer_positions`) k
LEFT JOIN (
  SELECT plate_key(`trailer_id`) AS `trailer_key`, `trailer_id`, `location_id`, `since`, `task_id`, `left_at`,
    ROW_NUMBER() OVER (PARTITION BY plate_key(`trailer_id`) ORDER BY max(`since`, coalesce(`left_at`, 0)) DESC) AS n
  FROM `trailer_positions`
) p ON p.`trailer_key` = k.`trailer_key` AND p.n = 1;
