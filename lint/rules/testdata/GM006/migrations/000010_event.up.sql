ALTER TABLE t_event RENAME TO t_events; -- want "GM006 RENAME TABLE t_event TO t_events: .*the code still uses t_event: UPDATE at .*users.go:13"
