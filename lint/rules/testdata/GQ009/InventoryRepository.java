package com.example.shop.repository;

import org.springframework.jdbc.core.JdbcTemplate;

public class InventoryRepository {
    private final JdbcTemplate jdbc;

    public InventoryRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    // The amount concatenated into the SQL: nothing guard can read.
    public int deduct(long id, int n) {
        return jdbc.update("UPDATE t_inventory SET inventory = inventory - " + n + " WHERE id = ?", id); // want "^GQ009 not checked: SQL built at run time: concatenation with n$"
    }

    // A table chosen at run time, through a variable.
    public int restock(String table, long id, int n) {
        String sql = "UPDATE " + table // want "GQ009 not checked: SQL built at run time: concatenation with table"
            + " SET inventory = inventory + ? WHERE id = ?";
        return jdbc.update(sql, n, id);
    }

    // Constant SQL with placeholders is checked, not reported.
    public int deductGuarded(long id, int n) {
        return jdbc.update("UPDATE t_inventory SET inventory = inventory - ?, version = version + 1 WHERE id = ? AND inventory >= ?", n, id, n);
    }
}
