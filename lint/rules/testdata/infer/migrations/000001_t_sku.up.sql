-- Vocabulary inference: the names alone say little here; how the code uses
-- each column says the rest (queries.sql, SkuMapper.xml).

-- stock_num matches no counter pattern: the code decrements it, so it is a
-- counter. low_stock matches *_stock but is a threshold: never a counter.
CREATE TABLE t_sku ( -- want "GS003 counter t_sku.stock_num has no CHECK .*inferred counter: decremented at testdata/infer/SkuMapper.xml:6 [(]2 statements[)]"
  id        BIGINT NOT NULL AUTO_INCREMENT,
  stock_num INT    NOT NULL DEFAULT 0,
  low_stock INT    NOT NULL DEFAULT 0,
  version   BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (id)
) ENGINE=InnoDB;
