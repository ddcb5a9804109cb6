package com.example.shop.service;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

public class StockService {
    private static final Logger LOGGER = LoggerFactory.getLogger(StockService.class);
    // A message kept in a constant starts like SQL and is not SQL.
    private static final String DEDUCT_FAILED = "update stock fail";

    private final JdbcTemplate jdbcTemplate;
    private final StockCache cache;

    public StockService(JdbcTemplate jdbcTemplate, StockCache cache) {
        this.jdbcTemplate = jdbcTemplate;
        this.cache = cache;
    }

    // The statement the template runs is reported; the texts of the log
    // lines, exceptions and cache keys around it are not.
    public void deduct(long id, int n) {
        int rows = jdbcTemplate.update("UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AN inventory >= ?", n, id, n); // want "^GQ009 not checked: SQL does not parse at 23:103: syntax error near \"AN inventory >= \\?\""
        if (rows != 1) {
            LOGGER.warn("update stock fail for " + id);
            cache.update("delete stock cache", id);
            String reason = "delete reservation failed: " + id;
            System.out.println(DEDUCT_FAILED + ": " + reason);
            throw new StockShortage("update stock fail: " + id);
        }
    }

    // A table chosen at run time: the statement cannot be read.
    public int purge(String table, long id) {
        String sql = "DELETE FROM " + table + " WHERE id = ?"; // want "^GQ009 not checked: SQL built at run time: concatenation with table$"
        return jdbcTemplate.update(sql, id);
    }
}
