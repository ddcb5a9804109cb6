ALTER TABLE t_user MODIFY COLUMN status ENUM('new','active') NOT NULL DEFAULT 'new', ALGORITHM=COPY, LOCK=SHARED; -- want "GM007 .*rows whose status is 'closed' or 'banned' .*fail it, or are set to '' outside strict sql_mode; guard migrate's preflight does not count them: SELECT COUNT\\(\\*\\) FROM `t_user` WHERE `status` IN \\('closed', 'banned'\\) finds them$"
-- Case alone changes no value the default collations tell apart.
ALTER TABLE t_user MODIFY COLUMN status ENUM('NEW','Active') NOT NULL DEFAULT 'NEW', ALGORITHM=COPY, LOCK=SHARED;
ALTER TABLE t_user MODIFY COLUMN tags SET('a','b') NULL, ALGORITHM=COPY, LOCK=SHARED; -- want "GM007 .*rows whose tags holds 'c' .*WHERE FIND_IN_SET\\('c', `tags`\\) > 0 finds them$"
