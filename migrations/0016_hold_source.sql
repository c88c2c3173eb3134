ALTER TABLE `tasks` ADD `hold_source` text;--> statement-breakpoint
-- Holds made before the hold's source was kept are staff's (CONTRACT §19 "Damage").
UPDATE `tasks` SET `hold_source` = 'staff' WHERE `on_hold` = 1;