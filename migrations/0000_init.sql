CREATE TABLE `activity_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`user_id` text,
	`user_name` text NOT NULL,
	`action` text NOT NULL,
	`details` text NOT NULL,
	`timestamp` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `activity_time` ON `activity_log` (`timestamp`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`type` text NOT NULL,
	`title` text NOT NULL,
	`message` text NOT NULL,
	`task_id` text,
	`is_read` integer DEFAULT false NOT NULL,
	`play_sound` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `notifications_user` ON `notifications` (`user_id`,`is_read`,`created_at`);--> statement-breakpoint
CREATE TABLE `presence_intervals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `presence_user` ON `presence_intervals` (`user_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `presence_open` ON `presence_intervals` (`ended_at`);--> statement-breakpoint
CREATE TABLE `punches` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`clock_type` text NOT NULL,
	`timestamp` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `punches_user` ON `punches` (`user_id`,`timestamp`);--> statement-breakpoint
CREATE INDEX `punches_time` ON `punches` (`timestamp`);--> statement-breakpoint
CREATE TABLE `task_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`task_id` text NOT NULL,
	`type` text NOT NULL,
	`actor_id` text,
	`driver_id` text,
	`from_status` text,
	`to_status` text,
	`reason` text,
	`at` integer NOT NULL,
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`driver_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `task_events_task` ON `task_events` (`task_id`,`at`);--> statement-breakpoint
CREATE INDEX `task_events_type` ON `task_events` (`type`,`at`);--> statement-breakpoint
CREATE TABLE `tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`origin` text NOT NULL,
	`destination` text NOT NULL,
	`trailer_id` text NOT NULL,
	`priority` text DEFAULT 'normal' NOT NULL,
	`status` text DEFAULT 'bolsa_trabajo' NOT NULL,
	`vehicle_type` text DEFAULT 'semiremolque' NOT NULL,
	`assigned_to` text,
	`created_by` text,
	`credited_to` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`assigned_at` integer,
	`completed_at` integer,
	`status_since` integer NOT NULL,
	`return_reason` text,
	`returned_by` text,
	`returned_at` integer,
	`no_drivers_available` integer,
	`version` integer DEFAULT 1 NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`assigned_to`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`credited_to`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`returned_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tasks_status` ON `tasks` (`status`,`priority`,`created_at`);--> statement-breakpoint
CREATE INDEX `tasks_created` ON `tasks` (`created_at`);--> statement-breakpoint
CREATE INDEX `tasks_assigned_at` ON `tasks` (`assigned_at`);--> statement-breakpoint
CREATE INDEX `tasks_completed` ON `tasks` (`completed_at`);--> statement-breakpoint
CREATE INDEX `tasks_trailer` ON `tasks` (`trailer_id`,`completed_at`);--> statement-breakpoint
CREATE INDEX `tasks_assignee` ON `tasks` (`assigned_to`,`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_open_trailer` ON `tasks` (`trailer_id`) WHERE status IN ('bolsa_trabajo', 'en_proceso') AND deleted_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_active_driver` ON `tasks` (`assigned_to`) WHERE status = 'en_proceso' AND deleted_at IS NULL;--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`password_hash` text NOT NULL,
	`role` text NOT NULL,
	`is_approved` integer DEFAULT false NOT NULL,
	`is_online` integer DEFAULT false NOT NULL,
	`task_types` text DEFAULT '[]' NOT NULL,
	`movements_count` integer DEFAULT 0 NOT NULL,
	`token_version` integer DEFAULT 0 NOT NULL,
	`idle_since` integer,
	`last_activity_at` integer,
	`created_at` integer NOT NULL,
	`approved_at` integer,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_live` ON `users` (`email`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `users_role` ON `users` (`role`,`is_approved`);