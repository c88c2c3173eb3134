DROP INDEX `users_role`;--> statement-breakpoint
CREATE INDEX `users_role` ON `users` (`role`,`is_approved`,`is_online`);--> statement-breakpoint
CREATE INDEX `tasks_untried` ON `tasks` (`created_at`) WHERE status = 'bolsa_trabajo' AND deleted_at IS NULL AND no_drivers_available IS NULL;