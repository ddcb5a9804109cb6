-- Columns the code uses as states though neither name nor comment says so.
CREATE TABLE t_seat (
  id BIGINT NOT NULL PRIMARY KEY,
  lock_mark INT NOT NULL DEFAULT 0,
  buyer_id BIGINT NULL,
  note_code INT NOT NULL DEFAULT 0,
  is_hot INT NOT NULL DEFAULT 0,
  is_vip INT NOT NULL DEFAULT 0
) ENGINE=InnoDB;
