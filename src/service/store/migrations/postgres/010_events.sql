-- Admin and access events, webhooks and their deliveries (same change as
-- migrations/sqlite/010_events.sql; docs/guides/service.md, "Events, audit log and webhooks").
--
-- Every change writes its event in the same transaction (or statement) as the change
-- (store/postgres-events.ts). An event of a realm that has an enabled webhook also gets an outbox
-- row there; the delivery workers of all instances (events/webhook-dispatcher.ts) turn outbox rows
-- into sends and deliver them, each webhook leased to one instance at a time
-- (SELECT … FOR UPDATE SKIP LOCKED), so racing instances do not deliver an event twice.

CREATE TABLE events (
  seq             bigint GENERATED ALWAYS AS IDENTITY,
  id              text COLLATE "C" NOT NULL,
  realm           text COLLATE "C" NOT NULL,
  time            bigint NOT NULL,
  type            text COLLATE "C" NOT NULL,
  operation_type  text,
  resource_type   text,
  resource_path   text COLLATE "C",
  representation  text,
  error           text,
  details         jsonb NOT NULL DEFAULT '{}',
  auth_client_id  text COLLATE "C",
  auth_user_id    text COLLATE "C",
  auth_username   text,
  auth_ip_address text,
  CONSTRAINT events_pkey PRIMARY KEY (seq)
);
CREATE INDEX events_realm_time ON events (realm, time);

CREATE TABLE event_outbox (
  seq bigint NOT NULL,
  CONSTRAINT event_outbox_pkey PRIMARY KEY (seq),
  CONSTRAINT event_outbox_event FOREIGN KEY (seq) REFERENCES events(seq) ON DELETE CASCADE
);

CREATE TABLE webhooks (
  id                text COLLATE "C" NOT NULL,
  realm             text COLLATE "C" NOT NULL REFERENCES realms(name) ON DELETE CASCADE,
  url               text NOT NULL,
  secret            text NOT NULL,
  enabled           boolean NOT NULL,
  event_types       jsonb NOT NULL,
  created_by        text,
  created_timestamp bigint NOT NULL,
  lease_owner       text,
  lease_until       bigint,
  CONSTRAINT webhooks_pkey PRIMARY KEY (id)
);
CREATE INDEX webhooks_realm ON webhooks (realm, created_timestamp);

CREATE TABLE webhook_sends (
  seq                     bigint GENERATED ALWAYS AS IDENTITY,
  id                      text COLLATE "C" NOT NULL,
  webhook_id              text COLLATE "C" NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_seq               bigint NOT NULL REFERENCES events(seq) ON DELETE CASCADE,
  event_type              text NOT NULL,
  state                   text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts                integer NOT NULL DEFAULT 0,
  first_attempt_timestamp bigint,
  next_attempt_timestamp  bigint NOT NULL,
  last_status             integer,
  last_error              text,
  sent_timestamp          bigint,
  CONSTRAINT webhook_sends_pkey PRIMARY KEY (seq),
  CONSTRAINT webhook_sends_id UNIQUE (id),
  CONSTRAINT webhook_sends_once UNIQUE (webhook_id, event_seq)
);
CREATE INDEX webhook_sends_pending ON webhook_sends (webhook_id, event_seq) WHERE state = 'pending';
CREATE INDEX webhook_sends_event ON webhook_sends (event_seq);

CREATE TABLE event_retention (
  realm text COLLATE "C" NOT NULL REFERENCES realms(name) ON DELETE CASCADE,
  days  integer NOT NULL CHECK (days > 0),
  CONSTRAINT event_retention_pkey PRIMARY KEY (realm)
);
