CREATE TABLE `gate_visits` (
	`id` text PRIMARY KEY NOT NULL,
	`truck_plate` text NOT NULL,
	`carrier` text NOT NULL,
	`carrier_key` text NOT NULL,
	`driver_name` text,
	`appointment_at` integer,
	`entered_at` integer NOT NULL,
	`exited_at` integer,
	`dropped_trailer_id` text,
	`dropped_trailer_key` text,
	`picked_trailer_id` text,
	`picked_trailer_key` text,
	`entry_seal` text,
	`exit_seal` text,
	`seal_mismatch` integer DEFAULT false NOT NULL,
	`entered_by` text,
	`exited_by` text,
	FOREIGN KEY (`entered_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`exited_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `gate_visits_entered` ON `gate_visits` (`entered_at`);--> statement-breakpoint
CREATE INDEX `gate_visits_exited` ON `gate_visits` (`exited_at`);--> statement-breakpoint
CREATE INDEX `gate_visits_dropped` ON `gate_visits` (`dropped_trailer_key`,`entered_at`);--> statement-breakpoint
CREATE INDEX `gate_visits_picked` ON `gate_visits` (`picked_trailer_key`,`exited_at`);