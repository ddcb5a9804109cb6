// Package sqlfile reads .sql scripts: the whole file is one fragment,
// split into statements by the driver, with its guard:ignore comments.
package sqlfile
