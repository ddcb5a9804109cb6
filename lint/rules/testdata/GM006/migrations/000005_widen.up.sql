-- Widening keeps every value: silent.
ALTER TABLE t_user MODIFY COLUMN age BIGINT NULL;
ALTER TABLE t_user MODIFY COLUMN kind ENUM('a','b','c','d') NOT NULL DEFAULT 'a';
ALTER TABLE t_user MODIFY COLUMN name VARCHAR(40) NOT NULL;
