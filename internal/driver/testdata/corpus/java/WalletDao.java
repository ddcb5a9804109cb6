package com.example.wallet;

import java.sql.*;

public class WalletDao {
    private static final String DEBIT =
        "UPDATE t_wallet SET balance = balance - ?, version = version + 1 WHERE user_id = ? AND balance >= ?";

    private final Connection conn;

    public WalletDao(Connection conn) { this.conn = conn; }

    public boolean debit(long user, java.math.BigDecimal amt) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(DEBIT)) {
            ps.setBigDecimal(1, amt);
            ps.setLong(2, user);
            ps.setBigDecimal(3, amt);
            return ps.executeUpdate() == 1;
        }
    }

    public void zero(long user) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.executeUpdate("UPDATE t_wallet SET balance = 0 WHERE user_id = " + user);
        }
    }

    public ResultSet lock(long user) throws SQLException {
        PreparedStatement ps = conn.prepareStatement("SELECT balance FROM t_wallet WHERE user_id = ? FOR UPDATE NOWAIT");
        ps.setLong(1, user);
        return ps.executeQuery();
    }

    public int spendPoints(org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate jdbc, long user, int p) {
        return jdbc.update("UPDATE t_wallet SET points = points - :p, version = version + 1 WHERE user_id = :u",
            java.util.Map.of("p", p, "u", user));
    }

    public int bump(long user) throws SQLException {
        String sql = String.format("UPDATE t_wallet SET points = points + 1 WHERE user_id = %d", user);
        try (Statement st = conn.createStatement()) {
            return st.executeUpdate(sql);
        }
    }
}
