-- lock_mark: 0 free, 1 taken, 2 done; nothing in the schema says so.
CREATE TABLE t_job (
  id BIGINT PRIMARY KEY,
  lock_mark INT NOT NULL DEFAULT 0,
  owner VARCHAR(64),
  note VARCHAR(255)
);
