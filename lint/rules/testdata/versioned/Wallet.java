package shop.wallet;

import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;
import lombok.Data;

@TableName("t_wallet")
@Data
public class Wallet {
    @TableId
    private Long id;
    private java.math.BigDecimal balance;
}
