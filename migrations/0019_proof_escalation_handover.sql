CREATE TABLE `handover_notes` (
	`id` text PRIMARY KEY NOT NULL,
	`text` text NOT NULL,
	`author_id` text,
	`author_name` text NOT NULL,
	`shift` text NOT NULL,
	`date` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `handover_notes_shift` ON `handover_notes` (`date`,`shift`,`created_at`);--> statement-breakpoint
CREATE TABLE `task_escalations` (
	`task_id` text NOT NULL,
	`rule` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`task_id`, `rule`),
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `task_escalations_created` ON `task_escalations` (`created_at`);--> statement-breakpoint
ALTER TABLE `tasks` ADD `proof` text;--> statement-breakpoint
ALTER TABLE `tasks` ADD `dropped_at_location_id` text REFERENCES locations(id);--> statement-breakpoint
-- Completions before proof existed: the driver's tap, as a manual completion (CONTRACT §20).
UPDATE `tasks` SET `proof` = 'manual' WHERE `status` = 'finalizada';
