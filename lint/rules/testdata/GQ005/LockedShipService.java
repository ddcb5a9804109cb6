package shop.plus.service;

import java.util.concurrent.TimeUnit;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import shop.plus.mapper.MybatisPlusOrderMapper;
import shop.plus.model.MybatisPlusOrderDO;

// The state is checked, then the lock taken, then the state written by key:
// the lock serialises the writes, not the check that decided them.
public class LockedShipService {
    private MybatisPlusOrderMapper orderMapper;
    private RedissonClient redisson;

    public void ship(Long id) throws InterruptedException {
        MybatisPlusOrderDO order = orderMapper.selectById(id);
        if (!"paid".equals(order.getStatus())) {
            throw new IllegalStateException("not paid");
        }
        RLock lock = redisson.getLock("lock:order:" + id);
        if (!lock.tryLock(1, 10, TimeUnit.SECONDS)) {
            return;
        }
        try {
            order.setStatus("shipped");
            orderMapper.updateById(order); // want "GQ005 state column t_order.status is set to \"shipped\" .*after order read by selectById at line 16.*; the row was read at line 16, before the Redisson lock \\(tryLock\\) at line 21 was taken: the lock does not even cover the check"
        } finally {
            lock.unlock();
        }
    }

    // Twin: read under the lock; still a transition without a predicate,
    // but the finding does not claim the check stood outside the lock.
    public void shipLocked(Long id) throws InterruptedException {
        RLock lock = redisson.getLock("lock:order:" + id);
        if (!lock.tryLock(1, 10, TimeUnit.SECONDS)) {
            return;
        }
        try {
            MybatisPlusOrderDO order = orderMapper.selectById(id);
            if (!"paid".equals(order.getStatus())) {
                throw new IllegalStateException("not paid");
            }
            order.setStatus("shipped");
            orderMapper.updateById(order); // want "GQ005 state column t_order.status is set to \"shipped\" .*after order read by selectById at line 40[^;]*; [^;]*; the Redisson lock \\(tryLock\\) taken at line 36 does not make it safe"
        } finally {
            lock.unlock();
        }
    }
}
