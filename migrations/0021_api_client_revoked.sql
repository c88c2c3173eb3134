DROP INDEX `api_clients_name`;--> statement-breakpoint
ALTER TABLE `api_clients` ADD `revoked_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `api_clients_name` ON `api_clients` (`name_key`) WHERE revoked_at IS NULL;