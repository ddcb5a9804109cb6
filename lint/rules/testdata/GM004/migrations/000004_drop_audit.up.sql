DROP TABLE t_audit_log; -- want "GM004 DROP TABLE t_audit_log destroys the table and its rows; nothing guard reads uses it"
