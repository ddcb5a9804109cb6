-- A dump's session settings change only the migration's own connection.
SET SESSION sql_mode = 'NO_AUTO_VALUE_ON_ZERO';
SET GLOBAL sql_mode = 'NO_ENGINE_SUBSTITUTION'; -- want "GM005 SET GLOBAL sql_mode = 'NO_ENGINE_SUBSTITUTION' turns strict mode off"
SET GLOBAL sql_mode = 'STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION';
SET GLOBAL check_constraint_checks = OFF; -- want "GM005 SET GLOBAL check_constraint_checks = OFF stops MariaDB evaluating every CHECK"
SET GLOBAL check_constraint_checks = ON;
