CREATE TABLE "node_presence" (
	"node_id" text NOT NULL,
	"user_id" text NOT NULL,
	"since" bigint NOT NULL,
	CONSTRAINT "node_presence_node_id_user_id_pk" PRIMARY KEY("node_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"reset_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_nodes" (
	"id" text PRIMARY KEY NOT NULL,
	"started_at" bigint NOT NULL,
	"heartbeat_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "node_presence" ADD CONSTRAINT "node_presence_node_id_server_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."server_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_presence" ADD CONSTRAINT "node_presence_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "node_presence_user" ON "node_presence" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "rate_limits_reset" ON "rate_limits" USING btree ("reset_at");