CREATE TABLE `api_clients` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`key_hash` text NOT NULL,
	`key_prefix` text NOT NULL,
	`scopes` text NOT NULL,
	`created_by` text,
	`created_by_name` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_clients_name` ON `api_clients` (`name_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `api_clients_key` ON `api_clients` (`key_hash`);--> statement-breakpoint
CREATE TABLE `api_rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`points` integer DEFAULT 0 NOT NULL,
	`expire` integer
);
--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`webhook_id` text NOT NULL,
	`event_id` text NOT NULL,
	`type` text NOT NULL,
	`subject` text NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_status_code` integer,
	`last_error` text,
	`next_attempt_at` integer,
	`created_at` integer NOT NULL,
	`delivered_at` integer,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_queue` ON `webhook_deliveries` (`webhook_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_created` ON `webhook_deliveries` (`created_at`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`description` text,
	`events` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`secret` text NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`failing_since` integer,
	`disabled_at` integer,
	`lease_owner` text,
	`lease_until` integer,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `webhooks_active` ON `webhooks` (`active`);--> statement-breakpoint
ALTER TABLE `tasks` ADD `external_ref` text;--> statement-breakpoint
ALTER TABLE `tasks` ADD `created_by_client_id` text REFERENCES api_clients(id) ON DELETE set null;--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_open_external_ref_client` ON `tasks` (`created_by_client_id`,`external_ref`) WHERE external_ref IS NOT NULL AND created_by_client_id IS NOT NULL AND status IN ('bolsa_trabajo', 'en_proceso') AND deleted_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_open_external_ref_user` ON `tasks` (`created_by`,`external_ref`) WHERE external_ref IS NOT NULL AND created_by_client_id IS NULL AND status IN ('bolsa_trabajo', 'en_proceso') AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `tasks_external_ref` ON `tasks` (`external_ref`) WHERE external_ref IS NOT NULL;