-- An OAuth login's `state` is the text the provider echoes back, not a
-- state of the row: a long string is free text, never a state machine, so
-- the table needs no version column (no GS006) and init leaves it out.
CREATE TABLE t_social_login (
  id         BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  user_id    BIGINT       NOT NULL,
  state      VARCHAR(256) NULL COMMENT 'the last OAuth state',
  created_at TIMESTAMP    NOT NULL DEFAULT CURRENT_TIMESTAMP
) ENGINE=InnoDB;
