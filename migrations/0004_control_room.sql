CREATE TABLE `punch_corrections` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`punch_id` text NOT NULL,
	`action` text NOT NULL,
	`reason` text NOT NULL,
	`actor_id` text NOT NULL,
	`at` integer NOT NULL,
	FOREIGN KEY (`punch_id`) REFERENCES `punches`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `punch_corrections_punch` ON `punch_corrections` (`punch_id`);--> statement-breakpoint
ALTER TABLE `punches` ADD `offline` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `punches` ADD `corrected` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `punches` ADD `deleted_at` integer;--> statement-breakpoint
ALTER TABLE `tasks` ADD `on_hold` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `tasks` ADD `hold_reason` text;--> statement-breakpoint
ALTER TABLE `tasks` ADD `last_return_reason` text;