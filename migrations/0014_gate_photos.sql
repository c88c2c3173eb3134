CREATE TABLE `gate_photos` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`bytes` blob NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`size` integer NOT NULL,
	`created_at` integer NOT NULL,
	`attached_at` integer,
	`attached_to` text,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `gate_photos_owner` ON `gate_photos` (`owner_id`);--> statement-breakpoint
CREATE INDEX `gate_photos_created` ON `gate_photos` (`created_at`);--> statement-breakpoint
CREATE INDEX `gate_photos_attached` ON `gate_photos` (`attached_at`);