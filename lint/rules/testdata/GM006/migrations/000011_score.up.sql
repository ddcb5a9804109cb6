ALTER TABLE t_user MODIFY COLUMN score INT UNSIGNED NOT NULL DEFAULT 0; -- want "GM006 narrows t_user.score, INT to INT UNSIGNED: a value that is negative fails.*the code writes it \\(check that its values fit\\): UPDATE at .*users.go:18"
ALTER TABLE t_user MODIFY COLUMN level TINYINT UNSIGNED NOT NULL DEFAULT 0; -- want "GM006 narrows t_user.level, TINYINT to TINYINT UNSIGNED: a value that is negative fails.*nothing guard reads writes it"
ALTER TABLE t_user MODIFY COLUMN kind ENUM('a','b') NOT NULL DEFAULT 'a'; -- want "GM006 narrows t_user.kind, .*a value that is 'c' or 'd' fails"
