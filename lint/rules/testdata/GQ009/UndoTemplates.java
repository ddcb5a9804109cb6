package repo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

public class UndoTemplates {
    // A template for String.format: the SQL is built at run time.
    private static final String UPDATE_SQL_TEMPLATE = "UPDATE %s SET %s WHERE %s "; // want "^GQ009 not checked: a template \\(%s at 9:"
    // A table prefix replaced before the statement runs.
    private static final String SELECT_BY_ID = "SELECT id, status FROM ${TABLE_PREFIX}state_inst WHERE id = ?"; // want "^GQ009 not checked: a template \\(\\$\\{TABLE_PREFIX\\} at 11:"
    // A typo is still called one.
    private static final String BROKEN = "UPDATE t_stock SET qty = ? WHER id = ?"; // want "^GQ009 not checked: SQL does not parse"
    // A percent inside a string literal is data, and the statement parses.
    private static final String LIKE = "SELECT id FROM t_stock WHERE name LIKE '%s%' AND id = ?";

    void run(Connection conn, String table, String set, String where) throws SQLException {
        PreparedStatement undo = conn.prepareStatement(String.format(UPDATE_SQL_TEMPLATE, table, set, where)); // want "^GQ009 not checked: SQL built at run time"
        PreparedStatement byId = conn.prepareStatement(SELECT_BY_ID);
        PreparedStatement broken = conn.prepareStatement(BROKEN);
        PreparedStatement like = conn.prepareStatement(LIKE);
    }
}
