ALTER TABLE t_user MODIFY COLUMN status ENUM('new','active') NOT NULL DEFAULT 'new', ALGORITHM=COPY, LOCK=SHARED; -- want "GM007 .*rows whose status is 'closed' or 'banned' .*fail it, or are set to '' outside strict sql_mode; guard migrate counts the rows where `status` IN \\('closed', 'banned'\\) and refuses if any$"
-- Case alone changes no value the default collations tell apart.
ALTER TABLE t_user MODIFY COLUMN status ENUM('NEW','Active') NOT NULL DEFAULT 'NEW', ALGORITHM=COPY, LOCK=SHARED;
ALTER TABLE t_user MODIFY COLUMN tags SET('a','b') NULL, ALGORITHM=COPY, LOCK=SHARED; -- want "GM007 .*rows whose tags holds 'c' .*counts the rows where FIND_IN_SET\\('c', `tags`\\) > 0 and refuses if any$"
