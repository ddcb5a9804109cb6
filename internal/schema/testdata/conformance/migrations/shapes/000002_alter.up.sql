CREATE TABLE t_like LIKE t_stock;
ALTER TABLE t_like DROP COLUMN doc, ADD COLUMN extra INT NOT NULL DEFAULT 7 CHECK (extra > 0), DROP CONSTRAINT chk_between, RENAME COLUMN memo TO memo2;
ALTER TABLE t_order ADD UNIQUE KEY uk_stock_amount (stock_id, amount), MODIFY paid_at DATETIME NULL;
ALTER TABLE t_log ENGINE=InnoDB, ADD PRIMARY KEY (id);
ALTER TABLE t_like MODIFY status ENUM('NEW','PAID') NOT NULL DEFAULT 'NEW' COMMENT '0->new; 1->paid';
CREATE INDEX ix_msg ON t_log (msg(10));
DROP TABLE t_mem;
RENAME TABLE t_aria TO t_aria2;
