DROP TABLE IF EXISTS t_session; -- want "GM004 DROP TABLE t_session .*the code still uses it: SELECT at .*session.go:9, DELETE at .*session.go:14"
