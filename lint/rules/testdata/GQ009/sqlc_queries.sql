-- Queries of a PostgreSQL project (sqlc): one finding for the file.
-- name: FindInventory :many
SELECT id, inventory FROM t_inventory ORDER BY id LIMIT $1 OFFSET $2; -- want "GQ009 not checked: 3 of the 3 statements of this file do not parse as MySQL .*the file is written for PostgreSQL \\(\\$1 placeholders\\)"

-- name: InventoryIDs :many
SELECT id::text FROM t_inventory;

-- name: ListInventory :many
SELECT id, inventory FROM t_inventory ORDER BY id NULLS LAST;
