package com.example.shop.dao;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

public class JdbcStockDao {
    private static final Logger log = LoggerFactory.getLogger(JdbcStockDao.class);

    private static final String DEDUCT =
        "UPDATE t_inventory SET inventory = inventory - ?, version = version + 1 "
        + "WHERE id = ? AND inventory >= ?";

    private static final String SELECT_STOCK = "SELECT id, inventory, version FROM t_inventory";
    private static final String BY_ID = SELECT_STOCK + " WHERE id = ?";

    // guard:ignore GQ003 the import job owns these rows
    static final String RESET = "UPDATE t_inventory SET inventory = ? WHERE id = ?";

    private final JdbcTemplate jdbc;

    public JdbcStockDao(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public boolean deduct(long id, int n) {
        return jdbc.update(DEDUCT, n, id, n) == 1;
    }

    public Stock find(long id) {
        return jdbc.queryForObject(BY_ID, STOCK_ROW, id);
    }

    public void reset(long id, int value) {
        jdbc.update(RESET, value, id);
    }

    public int release(Connection conn, long id, int n) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(
                "UPDATE t_inventory SET inventory = inventory + ? WHERE id = ?")) {
            ps.setInt(1, n);
            ps.setLong(2, id);
            return ps.executeUpdate();
        }
    }

    public int markSold(long id, long version) {
        String sql = """
            UPDATE t_inventory
               SET status = 'SOLD_OUT', version = version + 1
             WHERE id = ? AND version = ?
            """;
        int rows = jdbc.update(sql, id, version);
        if (rows != 1) {
            log.warn("Update skipped for stock " + id);
        }
        return rows;
    }

    public int purge(String table, long id) {
        return jdbc.update("DELETE FROM " + table + " WHERE id = ?", id);
    }

    public int search(String sku, Integer status) {
        StringBuilder sb = new StringBuilder();
        sb.append("SELECT COUNT(*) FROM t_inventory WHERE 1 = 1");
        if (sku != null) {
            sb.append(" AND sku = ?");
        }
        return jdbc.queryForObject(sb.toString(), Integer.class);
    }

    public int archive(long days) {
        String sql = String.format("DELETE FROM t_inventory_log WHERE created < NOW() - INTERVAL %d DAY", days);
        return jdbc.update(sql);
    }
}
