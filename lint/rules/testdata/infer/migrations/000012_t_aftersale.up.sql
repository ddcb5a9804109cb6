-- The definitions say what the code does not: four states, and a switch.
-- One statement writes the state, from a parameter: an edit, no version asked.
CREATE TABLE t_aftersale (
  id            BIGINT NOT NULL AUTO_INCREMENT,
  after_status  INT    NOT NULL DEFAULT 0 COMMENT '售后状态：0->待审核；1->审核通过；2->已退款；3->已拒绝',
  delete_status INT    NOT NULL DEFAULT 0 COMMENT '0 live, 1 recycle bin, 2 purged',
  PRIMARY KEY (id)
) ENGINE=InnoDB;
