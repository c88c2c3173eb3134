-- Every existing photo is a user's: the old table has no owner_client_id (drizzle-kit copied it from there).
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_gate_photos` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text,
	`owner_client_id` text,
	`bytes` blob NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`size` integer NOT NULL,
	`created_at` integer NOT NULL,
	`attached_at` integer,
	`attached_to` text,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`owner_client_id`) REFERENCES `api_clients`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "gate_photos_one_owner" CHECK((owner_id IS NULL) <> (owner_client_id IS NULL))
);
--> statement-breakpoint
INSERT INTO `__new_gate_photos`("id", "owner_id", "owner_client_id", "bytes", "width", "height", "size", "created_at", "attached_at", "attached_to") SELECT "id", "owner_id", NULL, "bytes", "width", "height", "size", "created_at", "attached_at", "attached_to" FROM `gate_photos`;--> statement-breakpoint
DROP TABLE `gate_photos`;--> statement-breakpoint
ALTER TABLE `__new_gate_photos` RENAME TO `gate_photos`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `gate_photos_owner` ON `gate_photos` (`owner_id`);--> statement-breakpoint
CREATE INDEX `gate_photos_owner_client` ON `gate_photos` (`owner_client_id`);--> statement-breakpoint
CREATE INDEX `gate_photos_created` ON `gate_photos` (`created_at`);--> statement-breakpoint
CREATE INDEX `gate_photos_attached` ON `gate_photos` (`attached_at`);