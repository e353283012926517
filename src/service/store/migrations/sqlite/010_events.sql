-- Admin and access events, webhooks and their deliveries (same change as
-- migrations/postgres/010_events.sql; docs/guides/service.md, "Events, audit log and webhooks").
--
-- Every change writes its event in the same transaction as the change (store/sqlite-events.ts), so
-- the database never holds a change without its event or an event without its change. An event of a
-- realm that has an enabled webhook also gets an outbox row in that transaction; the delivery
-- worker (events/webhook-dispatcher.ts) turns outbox rows into one send per matching webhook and
-- delivers sends at least once, in event order per webhook.

CREATE TABLE events (
  -- Order of recording.
  seq             INTEGER PRIMARY KEY AUTOINCREMENT,
  -- The event's id in every delivery (a UUID).
  id              TEXT NOT NULL,
  realm           TEXT NOT NULL,
  -- Milliseconds since the epoch.
  time            INTEGER NOT NULL,
  -- admin.<RESOURCE>-<OPERATION> or access.<TYPE>[_ERROR].
  type            TEXT NOT NULL,
  operation_type  TEXT,
  resource_type   TEXT,
  resource_path   TEXT,
  -- JSON text of the representation after the change; secrets are never written here.
  representation  TEXT,
  error           TEXT,
  -- JSON object of strings.
  details         TEXT NOT NULL DEFAULT '{}',
  auth_client_id  TEXT,
  auth_user_id    TEXT,
  auth_username   TEXT,
  auth_ip_address TEXT
);
-- The audit log pages a realm's events newest first; pruning reads the oldest.
CREATE INDEX events_realm_time ON events (realm, time);

-- Events not yet handed to the realm's webhooks.
CREATE TABLE event_outbox (
  seq INTEGER PRIMARY KEY REFERENCES events(seq) ON DELETE CASCADE
);

CREATE TABLE webhooks (
  id                TEXT PRIMARY KEY,
  realm             TEXT NOT NULL REFERENCES realms(name) ON DELETE CASCADE,
  url               TEXT NOT NULL,
  -- Kept as given: every delivery is signed with it (the vendor keeps it the same way).
  secret            TEXT NOT NULL,
  enabled           INTEGER NOT NULL,
  -- JSON array of event-type filters.
  event_types       TEXT NOT NULL,
  created_by        TEXT,
  created_timestamp INTEGER NOT NULL,
  -- Which service instance delivers this webhook's sends until when (ms): one at a time, in order.
  lease_owner       TEXT,
  lease_until       INTEGER
);
CREATE INDEX webhooks_realm ON webhooks (realm, created_timestamp);

CREATE TABLE webhook_sends (
  seq                     INTEGER PRIMARY KEY AUTOINCREMENT,
  -- The payload's uid: the same in every attempt and resend.
  id                      TEXT NOT NULL UNIQUE,
  webhook_id              TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_seq               INTEGER NOT NULL REFERENCES events(seq) ON DELETE CASCADE,
  event_type              TEXT NOT NULL,
  state                   TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts                INTEGER NOT NULL DEFAULT 0,
  -- When the first attempt of the current round was made (a resend starts a new round).
  first_attempt_timestamp INTEGER,
  next_attempt_timestamp  INTEGER NOT NULL,
  -- HTTP status of the last attempt, null when it got no answer.
  last_status             INTEGER,
  last_error              TEXT,
  sent_timestamp          INTEGER,
  UNIQUE (webhook_id, event_seq)
);
CREATE INDEX webhook_sends_pending ON webhook_sends (webhook_id, event_seq) WHERE state = 'pending';
CREATE INDEX webhook_sends_event ON webhook_sends (event_seq);

-- How long a realm keeps its events (days); a realm without a row keeps them forever.
CREATE TABLE event_retention (
  realm TEXT PRIMARY KEY REFERENCES realms(name) ON DELETE CASCADE,
  days  INTEGER NOT NULL CHECK (days > 0)
);
