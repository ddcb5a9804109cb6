ALTER TABLE t_user ADD CONSTRAINT chk_points CHECK (points >= 0), ALGORITHM=COPY, LOCK=SHARED; -- want "GM007 ALTER TABLE t_user ADD CHECK chk_points \\(`points`>=0\\): rows where the condition is false fail it \\(3819 on MySQL, 4025 on MariaDB\\); guard migrate counts the rows where NOT \\(`points`>=0\\) and refuses if any$"
-- A NOT ENFORCED CHECK validates nothing (GS002 says what that is worth).
ALTER TABLE t_user ADD CONSTRAINT chk_level CHECK (level > 0) NOT ENFORCED, ALGORITHM=INPLACE, LOCK=NONE;
ALTER TABLE t_user ALTER CHECK chk_level ENFORCED; -- want "GM007 .*ALTER CHECK chk_level ENFORCED: rows that break the CHECK fail it"
-- One guard:ignore line per code, stacked above the statement.
-- guard:ignore GM007 the rows were checked by hand before the release
-- guard:ignore GM003 run in the quiet window
ALTER TABLE t_user ADD CONSTRAINT chk_big CHECK (big < 1000000);
