package shop.wallet;

import java.math.BigDecimal;

public class WalletService {
    private WalletMapper walletMapper;

    public void pay(long id, BigDecimal amount) {
        Wallet w = walletMapper.selectById(id);
        if (w.getBalance().compareTo(amount) < 0) {
            throw new IllegalStateException("insufficient");
        }
        Wallet upd = new Wallet();
        upd.setId(id); upd.setBalance(w.getBalance().subtract(amount));
        walletMapper.updateById(upd);
    }
}
