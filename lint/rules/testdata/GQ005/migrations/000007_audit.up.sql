-- audit_flag: 0 pending, then 1 or 2; nothing in the schema says so.
CREATE TABLE t_audit (
  id BIGINT NOT NULL PRIMARY KEY,
  audit_flag INT NOT NULL DEFAULT 0,
  reviewer VARCHAR(64) NULL
) ENGINE=InnoDB;
