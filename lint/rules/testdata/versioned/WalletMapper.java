package shop.wallet;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;

public interface WalletMapper extends BaseMapper<Wallet> {
}
