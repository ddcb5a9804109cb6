package shop.service;

import java.util.concurrent.TimeUnit;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.transaction.annotation.Transactional;
import shop.mbg.InventoryMapper;
import shop.model.Inventory;

// The read-modify-write people guard with a Redis lock: the finding names
// the lock, which is what its author believed made it safe.
public class LockedInventoryService {
    private InventoryMapper inventoryMapper;
    private StringRedisTemplate redis;
    private RedissonClient redisson;

    @Transactional
    public void deductUnderSetNx(long id, int n) {
        Boolean got = redis.opsForValue().setIfAbsent("lock:inv:" + id, "1", 10, TimeUnit.SECONDS);
        if (!Boolean.TRUE.equals(got)) {
            return;
        }
        try {
            Inventory inv = inventoryMapper.selectByPrimaryKey(id);
            inv.setInventory(inv.getInventory() - n);
            inventoryMapper.updateByPrimaryKeySelective(inv); // want "GQ003 counter t_inventory.inventory .*; neither the Redis SET NX \\(setIfAbsent\\) taken at line 20 nor the transaction it runs in \\(@Transactional\\) makes it safe: the lock can expire before the write"
        } finally {
            redis.delete("lock:inv:" + id);
        }
    }

    public void deductUnderRedisson(long id, int n) throws InterruptedException {
        RLock lock = redisson.getLock("lock:inv:" + id);
        if (!lock.tryLock(1, 10, TimeUnit.SECONDS)) {
            return;
        }
        try {
            Inventory inv = inventoryMapper.selectByPrimaryKey(id);
            inv.setInventory(inv.getInventory() - n);
            inventoryMapper.updateByPrimaryKeySelective(inv); // want "GQ003 counter t_inventory.inventory .*; the Redisson lock \\(tryLock\\) taken at line 35 does not make it safe"
        } finally {
            lock.unlock();
        }
    }

    // Twin: the lock is released before the write, which then stands
    // outside it; the finding says nothing of a lock.
    public void deductAfterRelease(long id, int n) {
        RLock lock = redisson.getLock("lock:inv:" + id);
        lock.lock();
        Inventory inv = inventoryMapper.selectByPrimaryKey(id);
        lock.unlock();
        inv.setInventory(inv.getInventory() - n);
        inventoryMapper.updateByPrimaryKeySelective(inv); // want "GQ003 counter t_inventory.inventory is set to inv.getInventory.. - n, computed from inv read by selectByPrimaryKey at line 52, and written by shop.mbg.InventoryMapper.updateByPrimaryKeySelective[^;]*$"
    }
}
