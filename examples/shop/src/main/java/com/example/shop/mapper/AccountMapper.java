package com.example.shop.mapper;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

/** Account balances: MyBatis annotations and plain JDBC. */
public interface AccountMapper {

    // safe: the balance can only be debited while it covers the amount.
    @Update("UPDATE t_account SET balance = balance - #{amount}, version = version + 1 "
            + "WHERE user_id = #{userId} AND balance >= #{amount}")
    int debit(@Param("userId") long userId, @Param("amount") BigDecimal amount);

    // unsafe GQ006: GREATEST hides an overdraft: the debit "succeeds" and the money is gone.
    @Update("UPDATE t_account SET balance = GREATEST(balance - #{amount}, 0), version = version + 1 WHERE user_id = #{userId}")
    int debitClamped(@Param("userId") long userId, @Param("amount") BigDecimal amount);

    // unsafe GQ007: a row lock on one primary coordinates nothing across replicas or shards.
    @Select("""
            SELECT balance
              FROM t_account
             WHERE user_id = #{userId}
               FOR UPDATE
            """)
    BigDecimal lockBalance(@Param("userId") long userId);

    /** JDBC path used by the nightly batch. */
    final class Batch {
        private Batch() {}

        static void credit(Connection conn, long userId, BigDecimal amount) throws SQLException {
            // unsafe GQ008: the upsert is used as a lock to move money into the account.
            try (PreparedStatement ps = conn.prepareStatement(
                    "INSERT INTO t_account (user_id, balance) VALUES (?, ?) "
                    + "ON DUPLICATE KEY UPDATE balance = balance + VALUES(balance), version = version + 1")) {
                ps.setLong(1, userId);
                ps.setBigDecimal(2, amount);
                ps.executeUpdate();
            }
        }
    }
}
