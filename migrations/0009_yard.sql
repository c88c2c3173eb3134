CREATE TABLE `locations` (
	`id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`kind` text NOT NULL,
	`zone` text NOT NULL,
	`capacity` integer DEFAULT 1 NOT NULL,
	`x` integer DEFAULT 0 NOT NULL,
	`y` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deactivated_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `locations_code` ON `locations` (`code`);--> statement-breakpoint
CREATE UNIQUE INDEX `locations_name_live` ON `locations` (`name_key`) WHERE deactivated_at IS NULL;--> statement-breakpoint
CREATE TABLE `trailer_positions` (
	`trailer_id` text PRIMARY KEY NOT NULL,
	`location_id` text,
	`since` integer NOT NULL,
	`task_id` text,
	`left_at` integer,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `trailer_positions_location` ON `trailer_positions` (`location_id`);--> statement-breakpoint
ALTER TABLE `tasks` ADD `origin_location_id` text REFERENCES locations(id);--> statement-breakpoint
ALTER TABLE `tasks` ADD `destination_location_id` text REFERENCES locations(id);--> statement-breakpoint
CREATE INDEX `tasks_incoming` ON `tasks` (`destination_location_id`) WHERE status IN ('bolsa_trabajo', 'en_proceso') AND deleted_at IS NULL;