package shop.jpa.service;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import shop.jpa.model.JpaInventory;
import shop.jpa.model.JpaVersionedInventory;
import shop.jpa.repository.JpaInventoryRepository;
import shop.jpa.repository.JpaVersionedInventoryRepository;

@Service
public class JpaStockService {
    private final JpaInventoryRepository inventoryRepository;
    private final JpaVersionedInventoryRepository versionedRepository;

    public JpaStockService(JpaInventoryRepository inventoryRepository, JpaVersionedInventoryRepository versionedRepository) {
        this.inventoryRepository = inventoryRepository;
        this.versionedRepository = versionedRepository;
    }

    // Read, subtract in Java, save: the UPDATE writes the absolute value by id.
    public void deduct(Long id, int n) {
        JpaInventory inv = inventoryRepository.findById(id).orElseThrow(IllegalStateException::new);
        inv.setQuantity(inv.getQuantity() - n);
        inventoryRepository.save(inv); // want "GQ003 counter t_inventory.inventory is set to inv.getQuantity.. - n, computed from inv read by findById at line 22, and written by shop.jpa.repository.JpaInventoryRepository.save"
    }

    // A derived finder is a read too.
    public void deductByProduct(Long productId, int n) {
        JpaInventory inv = inventoryRepository.findByProductId(productId);
        inv.setQuantity(inv.getQuantity() - n);
        this.inventoryRepository.saveAndFlush(inv); // want "GQ003 counter t_inventory.inventory .*computed from inv read by findByProductId at line 29"
    }

    // Safe twin: the entity has @Version, so the UPDATE is a compare-and-set.
    public void deductVersioned(Long id, int n) {
        JpaVersionedInventory inv = versionedRepository.findById(id).orElseThrow(IllegalStateException::new);
        inv.setInventory(inv.getInventory() - n);
        versionedRepository.save(inv);
    }

    // Safe twin: read under a pessimistic lock (SELECT … FOR UPDATE).
    public void deductLocked(Long id, int n) {
        JpaInventory inv = inventoryRepository.findLockedById(id);
        inv.setQuantity(inv.getQuantity() - n);
        inventoryRepository.save(inv);
    }

    // The value is the caller's, not computed from the read, but the code
    // decrements the counter elsewhere: the form's count undoes those decrements.
    public void restock(Long id, int total) {
        JpaInventory inv = inventoryRepository.getById(id);
        inv.setQuantity(total);
        inventoryRepository.save(inv); // want "GQ003 counter t_inventory.inventory is set to .*, a value the caller supplies, .* while the code decrements it at .*: a decrement committed after that value was read is undone"
    }

    // The entity's own method computes the value from the row read.
    public void decreaseStock(Long id, int n) {
        JpaInventory inv = inventoryRepository.findById(id).orElseThrow(IllegalStateException::new);
        inv.decrease(n);
        inventoryRepository.saveAndFlush(inv); // want "GQ003 counter t_inventory.inventory is set to inv.decrease.n., which does this.quantity -= n, computed from inv read by findById at line 58"
    }

    // Silent: the method's assignment goes to its parameter.
    public void recount(Long id, int n) {
        JpaInventory inv = inventoryRepository.findById(id).orElseThrow(IllegalStateException::new);
        inv.recount(n);
        inventoryRepository.save(inv);
    }

    // Silent: an entity guard did not see read may be new (an INSERT).
    public void create(JpaInventory inv, JpaInventory from) {
        inv.setQuantity(from.getQuantity() - 1);
        inventoryRepository.save(inv);
    }

    // No save: dirty checking writes the entity when the transaction commits.
    @Transactional
    public void deductInTransaction(Long id, int n) {
        JpaInventory inv = inventoryRepository.findById(id).orElseThrow(IllegalStateException::new);
        inv.decrease(n); // want "GQ003 counter t_inventory.inventory is set to inv.decrease.n., .*written by the UPDATE JPA's dirty checking sends at the commit of @Transactional deductInTransaction"
    }

    // Silent: a read-only transaction flushes nothing.
    @Transactional(readOnly = true)
    public int preview(Long id, int n) {
        JpaInventory inv = inventoryRepository.findById(id).orElseThrow(IllegalStateException::new);
        inv.decrease(n);
        return inv.getQuantity();
    }

    // Silent: no transaction, so the entity is detached once read.
    public int previewDetached(Long id, int n) {
        JpaInventory inv = inventoryRepository.findById(id).orElseThrow(IllegalStateException::new);
        inv.setQuantity(inv.getQuantity() - n);
        return inv.getQuantity();
    }

    // Each entity a finder returned is flushed at commit.
    @Transactional
    public void deductAll(java.util.List<Long> ids, int n) {
        for (JpaInventory inv : inventoryRepository.findAllById(ids)) {
            inv.setQuantity(inv.getQuantity() - n); // want "GQ003 counter t_inventory.inventory is set to inv.getQuantity.. - n, computed from inv read by findAllById at line 101, and written by the UPDATE JPA's dirty checking"
        }
    }
}
